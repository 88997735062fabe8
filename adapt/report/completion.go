package report

// Sampling holds the sampling settings of a request. Zero fields mean the
// server's defaults, except N, where 0 means 1.
type Sampling struct {
	N           int      `json:"n,omitempty"`
	Temperature float64  `json:"temperature"`
	TopP        float64  `json:"top_p,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Seed        *int64   `json:"seed,omitempty"`
	Stop        []string `json:"stop,omitempty"`
	// Logprobs asks for the log-probability of each generated token.
	Logprobs bool `json:"logprobs,omitempty"`
}

// Usage counts tokens.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.PromptTokens + v.PromptTokens, u.CompletionTokens + v.CompletionTokens}
}

// TokenLogprob is the log-probability of one generated token.
type TokenLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

// Completion is one sample a model returned.
type Completion struct {
	// Text is the answer.
	Text string `json:"text"`
	// Reasoning is reasoning text the server returned apart from the answer.
	Reasoning string `json:"reasoning,omitempty"`
	// Usage is this sample's share of the tokens.
	Usage Usage `json:"usage"`
	// FinishReason is the server's reason for stopping, such as "stop",
	// or "content_filter" for an answer a provider's filter cut.
	FinishReason string `json:"finish_reason,omitempty"`
	// Refusal is the model's refusal to answer, when the server gives it
	// apart from the text (OpenAI's message.refusal). Such a sample is
	// scored on its text, as any other (no code, mostly), and counted in
	// Report.Refusals.
	Refusal string `json:"refusal,omitempty"`
	// Logprobs holds token log-probabilities when they were asked for.
	Logprobs []TokenLogprob `json:"logprobs,omitempty"`
	// Err is set when this one sample failed (the others may not have).
	Err string `json:"error,omitempty"`
}
