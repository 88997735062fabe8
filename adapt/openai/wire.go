package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// The subset of the chat-completions wire format the client speaks. A
// request has model, messages, n, temperature, top_p, max_tokens (or
// max_completion_tokens, see Config.MaxCompletionTokens), seed, stop and
// logprobs, the zero ones left out but temperature.

type chatRequest struct {
	Model    string          `json:"model"`
	Messages []adapt.Message `json:"messages"`
	N        int             `json:"n,omitempty"`
	// Temperature is always sent: 0 asks for greedy decoding.
	Temperature         float64  `json:"temperature"`
	TopP                float64  `json:"top_p,omitempty"`
	MaxTokens           int      `json:"max_tokens,omitempty"`
	MaxCompletionTokens int      `json:"max_completion_tokens,omitempty"`
	Seed                *int64   `json:"seed,omitempty"`
	Stop                []string `json:"stop,omitempty"`
	Logprobs            bool     `json:"logprobs,omitempty"`
}

type chatResponse struct {
	ID      string          `json:"id"`
	Object  string          `json:"object"`
	Created int64           `json:"created"`
	Model   string          `json:"model"`
	Choices []choice        `json:"choices"`
	Usage   *usage          `json:"usage,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

type choice struct {
	Index        int       `json:"index"`
	Message      *message  `json:"message"`
	FinishReason string    `json:"finish_reason"`
	Logprobs     *logprobs `json:"logprobs,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ReasoningContent is where DeepSeek, vLLM and SGLang put reasoning;
	// Reasoning is where OpenRouter, Ollama and newer vLLM put it.
	ReasoningContent string `json:"reasoning_content,omitempty"`
	Reasoning        string `json:"reasoning,omitempty"`
	// Refusal is OpenAI's refusal message, given instead of content.
	Refusal string `json:"refusal,omitempty"`
}

type logprobs struct {
	Content []report.TokenLogprob `json:"content"`
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// ErrMalformedResponse is wrapped by the error for a successful HTTP
// response whose body is not a chat completion.
var ErrMalformedResponse = errors.New("openai: malformed response")

const wantShape = `want a chat.completion JSON object {"choices": [{"index", "message": {"role", "content"}, "finish_reason"}], "usage": {...}}`

// parseResponse decodes the body of a successful chat-completions response.
func parseResponse(body []byte) (*chatResponse, error) {
	var r chatResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: %s: %v; body starts %s", ErrMalformedResponse, wantShape, err, quoteStart(body))
	}
	if len(r.Error) > 0 && string(r.Error) != "null" {
		return nil, fmt.Errorf("%w: the server answered 200 with an error: %s", ErrMalformedResponse, errorMessage(body))
	}
	if r.Choices == nil {
		return nil, fmt.Errorf("%w: %s: no \"choices\" array; body starts %s", ErrMalformedResponse, wantShape, quoteStart(body))
	}
	for i, c := range r.Choices {
		if c.Message == nil {
			return nil, fmt.Errorf("%w: %s: choice %d has no \"message\"", ErrMalformedResponse, wantShape, i)
		}
	}
	return &r, nil
}

// quoteStart quotes the first bytes of a body for an error message.
func quoteStart(b []byte) string {
	const n = 120
	if len(b) <= n {
		return fmt.Sprintf("%q", b)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return fmt.Sprintf("%q…", b[:cut])
}

// errorMessage digs the message out of an error body: OpenAI's
// {"error": {"message"}}, Ollama's {"error": "…"}, vLLM's top-level
// {"message"}, FastAPI's {"detail"}; else the start of the body.
func errorMessage(body []byte) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message any             `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(body, &e) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(e.Error, &s) == nil && s != "":
			return s
		case json.Unmarshal(e.Error, &obj) == nil && obj.Message != "":
			return obj.Message
		case e.Message != nil:
			return fmt.Sprint(e.Message)
		case e.Detail != nil:
			return fmt.Sprint(e.Detail)
		}
	}
	return strings.TrimSpace(quoteStart(body))
}

// completions turns the choices of a response into completions, ordered by
// choice index (the caller has checked that there are no more than it
// asked for). message.reasoning_content (or message.reasoning) and a
// leading <think> block become Reasoning; message.refusal becomes Refusal,
// and the finish reason ("content_filter" for a filtered answer)
// FinishReason; token log-probabilities come from logprobs.content.
//
// The server reports usage per request, and the completions' usage must
// sum to it: the prompt tokens, paid once, go to the first completion, and
// the completion tokens are split among the choices in proportion to the
// length of their text, reasoning and refusal.
func completions(r *chatResponse) []report.Completion {
	chs := ordered(r.Choices)
	out := make([]report.Completion, len(chs))
	weights := make([]int, len(chs))
	for i, c := range chs {
		text, reasoning := splitThink(c.Message.Content)
		if rc := c.Message.ReasoningContent + c.Message.Reasoning; rc != "" {
			reasoning = strings.TrimSpace(rc + "\n" + reasoning)
		}
		out[i] = report.Completion{Text: text, Reasoning: reasoning, FinishReason: c.FinishReason, Refusal: c.Message.Refusal}
		if c.Logprobs != nil && len(c.Logprobs.Content) > 0 {
			out[i].Logprobs = append([]report.TokenLogprob(nil), c.Logprobs.Content...)
		}
		weights[i] = len(c.Message.Content) + len(c.Message.ReasoningContent) + len(c.Message.Reasoning) + len(c.Message.Refusal)
	}
	if r.Usage != nil && len(out) > 0 {
		out[0].Usage.PromptTokens = max(r.Usage.PromptTokens, 0)
		for i, n := range split(max(r.Usage.CompletionTokens, 0), weights) {
			out[i].Usage.CompletionTokens = n
		}
	}
	return out
}

// ordered returns the choices by their index when the indices are 0..n-1,
// else in the order given.
func ordered(chs []choice) []choice {
	out := make([]choice, len(chs))
	for _, c := range chs {
		if c.Index < 0 || c.Index >= len(chs) || out[c.Index].Message != nil {
			return chs
		}
		out[c.Index] = c
	}
	return out
}

// split divides total among len(weights) parts in proportion to the
// weights (equally when they are all zero), so that the parts sum to total.
func split(total int, weights []int) []int {
	out := make([]int, len(weights))
	if len(out) == 0 {
		return out
	}
	var sum float64
	for _, w := range weights {
		sum += float64(w)
	}
	prev, cum := 0, 0.0
	for i, w := range weights {
		cum += float64(w)
		frac := cum / sum
		if sum == 0 {
			frac = float64(i+1) / float64(len(weights))
		}
		end := total
		if f := math.Floor(float64(total) * frac); i < len(weights)-1 && f < float64(total) {
			end = int(f)
		}
		end = max(end, prev)
		out[i] = end - prev
		prev = end
	}
	return out
}

// splitThink separates reasoning in <think>…</think> at the start of a
// completion from the answer. A completion that opens <think> and never
// closes it is all reasoning. A completion with a closing </think> but no
// opening tag (the chat template of some reasoning models opens it in the
// prompt) has its reasoning before that tag.
func splitThink(s string) (text, reasoning string) {
	const open, closing = "<think>", "</think>"
	if rest, ok := strings.CutPrefix(strings.TrimLeft(s, " \t\r\n"), open); ok {
		r, after, found := strings.Cut(rest, closing)
		if !found {
			return "", strings.TrimSpace(rest)
		}
		return strings.TrimLeft(after, " \t\r\n"), strings.TrimSpace(r)
	}
	if r, after, found := strings.Cut(s, closing); found && !strings.Contains(r, open) {
		return strings.TrimLeft(after, " \t\r\n"), strings.TrimSpace(r)
	}
	return s, ""
}
