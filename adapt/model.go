package adapt

import (
	"context"
	"fmt"
	"strings"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // "system", "user" or "assistant"
	Content string `json:"content"`
}

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

// Request is what Evaluate asks a Model.
type Request struct {
	// Task is the task the prompt was made from. Models that call a
	// service ignore it; the built-in offline models answer from it.
	Task     *Task     `json:"-"`
	Messages []Message `json:"messages"`
	Sampling Sampling  `json:"sampling"`
	// Samples holds the indices of the samples requested, one per
	// completion (len(Samples) == Sampling.N), so that a model that caches
	// answers can key them by sample.
	Samples []int `json:"samples,omitempty"`
	// Round is the repair round the request asks for (see Repair); 0 is
	// the first answer.
	Round int `json:"round,omitempty"`
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

// Model answers chat requests. Complete returns up to req.Sampling.N
// completions (fewer is allowed: the missing ones are model errors; more
// is a model error of the whole request); an error fails every sample of
// the request, never the whole evaluation, and is retried (see
// Options.Attempts). Model errors are unscored, never failures (see the
// scoring rules in the package documentation). A panic in Complete is
// recovered and recorded as a model error.
type Model interface {
	Name() string
	Complete(ctx context.Context, req Request) ([]Completion, error)
}

// Pricer is implemented by models that know what their tokens cost.
// Evaluate puts the cost of a run's usage in its report.
type Pricer interface {
	Cost(Usage) (float64, bool)
}

// offline is a Model that answers from the task itself.
type offline struct {
	name   string
	answer func(t *Task) string
}

func (m offline) Name() string { return m.name }

func (m offline) Complete(ctx context.Context, req Request) ([]Completion, error) {
	if req.Task == nil {
		return nil, fmt.Errorf("adapt: model %s needs Request.Task", m.name)
	}
	n := max(req.Sampling.N, 1)
	text := fenced(req.Task.Language, m.answer(req.Task))
	out := make([]Completion, n)
	for i := range out {
		out[i] = Completion{Text: text, FinishReason: "stop"}
	}
	return out, nil
}

// Reference answers every request with the task's reference: the gold
// check. A valid task is always solved by it.
var Reference Model = offline{name: "reference", answer: func(t *Task) string { return t.Reference }}

// Identity answers every request with the task's code unchanged: the
// do-nothing baseline.
var Identity Model = offline{name: "identity", answer: func(t *Task) string { return t.Code }}

func fenced(lang, code string) string {
	return "```" + lang + "\n" + strings.TrimRight(code, "\n") + "\n```\n"
}

// ModelFunc makes a Model of a function: a scripted model in a test, a
// client written in a few lines.
func ModelFunc(name string, complete func(ctx context.Context, req Request) ([]Completion, error)) Model {
	return modelFunc{name, complete}
}

type modelFunc struct {
	name     string
	complete func(ctx context.Context, req Request) ([]Completion, error)
}

func (m modelFunc) Name() string { return m.name }

func (m modelFunc) Complete(ctx context.Context, req Request) ([]Completion, error) {
	return m.complete(ctx, req)
}
