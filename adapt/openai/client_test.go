package openai_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/report"
)

var (
	_ adapt.Model  = (*openai.Client)(nil)
	_ adapt.Pricer = (*openai.Client)(nil)
)

func use(prompt, completion int) report.Usage {
	return report.Usage{PromptTokens: prompt, CompletionTokens: completion}
}

func TestWireFormat(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) { answer(w, req) })
	c := api.client(t, func(cfg *openai.Config) { cfg.Name = "shown-name" })
	seed := int64(7)
	req := userRequest(3)
	req.Sampling = report.Sampling{N: 3, Temperature: 0.8, TopP: 0.95, MaxTokens: 256, Seed: &seed, Stop: []string{"\n\n\n"}}
	got, err := c.Complete(context.Background(), req)
	require.NoError(t, err)

	reqs := api.requests()
	require.Len(t, reqs, 1)
	n, temp, topP, maxTok := 3, 0.8, 0.95, 256
	want := wireReq{Model: "test-model", Messages: req.Messages, N: &n, Temperature: &temp, TopP: &topP, MaxTokens: &maxTok, Seed: &seed, Stop: []string{"\n\n\n"}}
	assert.Equal(t, want, reqs[0], "request body")
	wantComps := []report.Completion{
		{Text: "answer 0", FinishReason: "stop", Usage: report.Usage{PromptTokens: 10, CompletionTokens: 2}},
		{Text: "answer 1", FinishReason: "stop", Usage: report.Usage{CompletionTokens: 2}},
		{Text: "answer 2", FinishReason: "stop", Usage: report.Usage{CompletionTokens: 2}},
	}
	assert.Equal(t, wantComps, got, "completions")
	assert.Equal(t, "shown-name", c.Name())
	assert.Equal(t, openai.Stats{Requests: 1, Usage: report.Usage{PromptTokens: 10, CompletionTokens: 6}}, c.Stats())
}

func TestWireFormatDefaults(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) { answer(w, req) })
	_, err := api.client(t, nil).Complete(context.Background(), userRequest(0))
	require.NoError(t, err)
	c2 := api.client(t, func(cfg *openai.Config) { cfg.MaxCompletionTokens = true })
	req := userRequest(1)
	req.Sampling.MaxTokens = 100
	_, err = c2.Complete(context.Background(), req)
	require.NoError(t, err)

	reqs := api.requests()
	zero, hundred := 0.0, 100
	want := []wireReq{
		{Model: "test-model", Messages: req.Messages, Temperature: &zero},
		{Model: "test-model", Messages: req.Messages, Temperature: &zero, MaxCompletionTokens: &hundred},
	}
	assert.Equal(t, want, reqs, "zero settings are left out, temperature 0 is sent, max_completion_tokens on request")
}

func TestOrderAndExtraChoices(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		reply(w, req.Model, []wireChoice{textChoice(2, "c"), textChoice(0, "a"), textChoice(1, "b"), textChoice(3, "d")}, 1, 4)
	})
	_, err := api.client(t, nil).Complete(context.Background(), userRequest(3))
	require.ErrorIs(t, err, openai.ErrMalformedResponse, "more choices than n: which were asked for is unknown")
	assert.Contains(t, err.Error(), "the server returned 4 choices for n = 3")

	api = newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		reply(w, req.Model, []wireChoice{textChoice(2, "c"), textChoice(0, "a"), textChoice(1, "b")}, 1, 3)
	})
	got, err := api.client(t, nil).Complete(context.Background(), userRequest(3))
	require.NoError(t, err)
	var texts []string
	for _, c := range got {
		texts = append(texts, c.Text)
	}
	assert.Equal(t, []string{"a", "b", "c"}, texts, "choices ordered by index")
}

func TestLogprobs(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		if req.Logprobs == nil || !*req.Logprobs {
			apiError(w, 400, "logprobs not asked for")
			return
		}
		ch := textChoice(0, "def f")
		ch.Logprobs = map[string]any{"content": []map[string]any{
			{"token": "def", "logprob": -0.01, "bytes": []int{100, 101, 102}, "top_logprobs": []any{}},
			{"token": " f", "logprob": -1.5, "bytes": []int{32, 102}, "top_logprobs": []any{}},
		}}
		reply(w, req.Model, []wireChoice{ch}, 5, 2)
	})
	req := userRequest(1)
	req.Sampling.Logprobs = true
	got, err := api.client(t, nil).Complete(context.Background(), req)
	require.NoError(t, err)
	want := []report.TokenLogprob{{Token: "def", Logprob: -0.01}, {Token: " f", Logprob: -1.5}}
	assert.Equal(t, want, got[0].Logprobs, "logprobs")
}

func TestUsageSplit(t *testing.T) {
	tests := []struct {
		name       string
		texts      []string
		prompt     int
		completion int
		want       []report.Usage
		reason     string
	}{
		{
			name: "equal", texts: []string{"aaaa", "bbbb", "cccc"}, prompt: 30, completion: 31,
			want:   []report.Usage{use(30, 10), use(0, 10), use(0, 11)},
			reason: "prompt paid once, to the first; completion split evenly, sum exact",
		},
		{
			name: "proportional", texts: []string{"a", "bbbbbbbbb"}, prompt: 7, completion: 100,
			want:   []report.Usage{use(7, 10), use(0, 90)},
			reason: "completion tokens follow the length of each choice",
		},
		{
			name: "empty", texts: []string{"", ""}, prompt: 3, completion: 5,
			want:   []report.Usage{use(3, 2), use(0, 3)},
			reason: "empty choices split evenly",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
				var chs []wireChoice
				for k, s := range tt.texts {
					chs = append(chs, textChoice(k, s))
				}
				reply(w, req.Model, chs, tt.prompt, tt.completion)
			})
			c := api.client(t, nil)
			got, err := c.Complete(context.Background(), userRequest(len(tt.texts)))
			require.NoError(t, err)
			var us []report.Usage
			var sum report.Usage
			for _, c := range got {
				us = append(us, c.Usage)
				sum = sum.Add(c.Usage)
			}
			assert.Equal(t, tt.want, us, "%s", tt.reason)
			assert.Equal(t, report.Usage{PromptTokens: tt.prompt, CompletionTokens: tt.completion}, sum)
			assert.Equal(t, sum, c.Stats().Usage)
		})
	}
}

func TestReasoning(t *testing.T) {
	tests := []struct {
		name          string
		message       map[string]any
		text, reasons string
		reason        string
	}{
		{
			name:    "reasoning_content",
			message: map[string]any{"role": "assistant", "content": "the answer", "reasoning_content": "let me think"},
			text:    "the answer", reasons: "let me think",
			reason: "DeepSeek and vLLM put reasoning in reasoning_content",
		},
		{
			name:    "reasoning",
			message: map[string]any{"role": "assistant", "content": "the answer", "reasoning": "hmm"},
			text:    "the answer", reasons: "hmm",
			reason: "Ollama and OpenRouter call it reasoning",
		},
		{
			name:    "think",
			message: map[string]any{"role": "assistant", "content": "\n<think>\nstep 1\nstep 2\n</think>\n\nthe answer"},
			text:    "the answer", reasons: "step 1\nstep 2",
			reason: "<think> at the start is cut from the text into the reasoning",
		},
		{
			name:    "unclosed-think",
			message: map[string]any{"role": "assistant", "content": "<think>ran out of tokens"},
			text:    "", reasons: "ran out of tokens",
			reason: "an unclosed <think> is all reasoning",
		},
		{
			name:    "closing-only",
			message: map[string]any{"role": "assistant", "content": "thinking here</think>\nthe answer"},
			text:    "the answer", reasons: "thinking here",
			reason: "templates that open <think> in the prompt leave only the closing tag",
		},
		{
			name:    "think-later",
			message: map[string]any{"role": "assistant", "content": "use <think> tags like <think>x</think>"},
			text:    "use <think> tags like <think>x</think>", reasons: "",
			reason: "a <think> not at the start is text",
		},
		{
			name:    "null-content",
			message: map[string]any{"role": "assistant", "content": nil},
			text:    "", reasons: "",
			reason: "null content is empty text",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
				reply(w, req.Model, []wireChoice{{Message: tt.message, FinishReason: "stop"}}, 1, 1)
			})
			got, err := api.client(t, nil).Complete(context.Background(), userRequest(1))
			require.NoError(t, err)
			assert.Equal(t, tt.text, got[0].Text, tt.reason)
			assert.Equal(t, tt.reasons, got[0].Reasoning, tt.reason)
		})
	}
}

func TestRetryAfter(t *testing.T) {
	start := time.Now()
	date := start.Add(4 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		slack  time.Duration
		reason string
	}{
		{name: "seconds", header: http.Header{"Retry-After": {"3"}}, want: 3 * time.Second, reason: "Retry-After in seconds"},
		{name: "date", header: http.Header{"Retry-After": {date}}, want: 4 * time.Second, slack: time.Second, reason: "Retry-After as an HTTP date"},
		{name: "ms", header: http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"2"}}, want: 1500 * time.Millisecond, reason: "OpenAI's retry-after-ms wins"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
				if i == 0 {
					for k, v := range tt.header {
						w.Header()[k] = v
					}
					apiError(w, http.StatusTooManyRequests, "rate limited")
					return
				}
				answer(w, req)
			})
			c := api.client(t, nil)
			clock := newClock(c)
			clock.t = start
			got, err := c.Complete(context.Background(), userRequest(1))
			require.NoError(t, err)
			assert.Equal(t, "answer 0", got[0].Text)
			assert.Equal(t, 2, api.count())
			sl := clock.slept()
			require.Len(t, sl, 1, "one wait")
			assert.InDelta(t, tt.want.Seconds(), sl[0].Seconds(), tt.slack.Seconds(), tt.reason)
			assert.Equal(t, int64(1), c.Stats().Retries)
		})
	}
}

// TestRetryAfterRealClock checks, on the wall clock, that the client
// really waits as long as Retry-After says.
func TestRetryAfterRealClock(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		if i == 0 {
			w.Header().Set("Retry-After", "1")
			apiError(w, http.StatusTooManyRequests, "slow down")
			return
		}
		answer(w, req)
	})
	_, err := api.client(t, nil).Complete(context.Background(), userRequest(1))
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, times, 2)
	gap := times[1].Sub(times[0])
	assert.GreaterOrEqual(t, gap, time.Second, "the retry came after Retry-After")
	assert.Less(t, gap, 3*time.Second)
}

func TestRetryAfterTooLong(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		w.Header().Set("Retry-After", "3600")
		apiError(w, http.StatusTooManyRequests, "daily quota")
	})
	c := api.client(t, nil)
	clock := newClock(c)
	_, err := c.Complete(context.Background(), userRequest(1))
	require.Error(t, err)
	contains(t, err.Error(), "daily quota")
	contains(t, err.Error(), "longer than MaxBackoff")
	assert.Empty(t, clock.slept(), "no hour-long wait")
	assert.Equal(t, 1, api.count())
}

func TestRetry5xx(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		if i < 2 {
			apiError(w, http.StatusInternalServerError+i, "overloaded")
			return
		}
		answer(w, req)
	})
	c := api.client(t, func(cfg *openai.Config) { cfg.Backoff = time.Second })
	clock := newClock(c)
	got, err := c.Complete(context.Background(), userRequest(1))
	require.NoError(t, err)
	assert.Equal(t, "answer 0", got[0].Text)
	assert.Equal(t, 3, api.count())
	sl := clock.slept()
	require.Len(t, sl, 2)
	// Exponential backoff with jitter: the k-th wait is in [b/2, b] with b
	// = Backoff·2^k.
	assert.True(t, sl[0] >= 500*time.Millisecond && sl[0] <= time.Second, "first wait %v in [0.5s, 1s]", sl[0])
	assert.True(t, sl[1] >= time.Second && sl[1] <= 2*time.Second, "second wait %v in [1s, 2s]", sl[1])
}

func TestRetriesExhausted(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		apiError(w, http.StatusServiceUnavailable, "down for maintenance")
	})
	c := api.client(t, func(cfg *openai.Config) { cfg.MaxRetries = 2 })
	newClock(c)
	_, err := c.Complete(context.Background(), userRequest(1))
	require.Error(t, err)
	var ae *openai.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusServiceUnavailable, ae.StatusCode)
	assert.Equal(t, "down for maintenance", ae.Message)
	contains(t, err.Error(), "503 Service Unavailable: down for maintenance (gave up after 3 attempts)")
	assert.Equal(t, 3, api.count())
}

func TestNoRetryOn4xx(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		apiError(w, http.StatusNotFound, "The model `test-model` does not exist")
	})
	_, err := api.client(t, nil).Complete(context.Background(), userRequest(1))
	require.Error(t, err)
	contains(t, err.Error(), "404 Not Found: The model `test-model` does not exist")
	assert.Equal(t, 1, api.count(), "a 404 is not retried")
}

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		name, body, want, reason string
	}{
		{name: "openai", body: `{"error": {"message": "bad thing", "type": "invalid_request_error"}}`, want: "bad thing", reason: "OpenAI's shape"},
		{name: "ollama", body: `{"error": "model not found"}`, want: "model not found", reason: "Ollama's string error"},
		{name: "vllm", body: `{"object": "error", "message": "max_tokens too large", "type": "BadRequestError", "code": 400}`, want: "max_tokens too large", reason: "vLLM's top-level message"},
		{name: "text", body: `<html>bad gateway</html>`, want: `"<html>bad gateway</html>"`, reason: "a body that is not JSON is quoted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
				w.WriteHeader(http.StatusUnprocessableEntity)
				fmt.Fprint(w, tt.body)
			})
			_, err := api.client(t, nil).Complete(context.Background(), userRequest(1))
			var ae *openai.APIError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, tt.want, ae.Message, tt.reason)
		})
	}
}

func TestTimeout(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		select { // hang until the client gives up
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	c := api.client(t, func(cfg *openai.Config) {
		cfg.Timeout = 100 * time.Millisecond
		cfg.MaxRetries = 1
	})
	start := time.Now()
	_, err := c.Complete(context.Background(), userRequest(1))
	el := time.Since(start)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	contains(t, err.Error(), "no response within 100ms")
	assert.Equal(t, 2, api.count(), "a timeout is retried")
	assert.Less(t, el, 2*time.Second)
}

func TestHungBody(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"choices": [`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	c := api.client(t, func(cfg *openai.Config) {
		cfg.Timeout = 100 * time.Millisecond
		cfg.MaxRetries = -1
	})
	_, err := c.Complete(context.Background(), userRequest(1))
	require.Error(t, err)
	contains(t, err.Error(), "no response within 100ms")
	assert.Equal(t, 1, api.count(), "MaxRetries < 0 means no retries")
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, body, want, reason string
	}{
		{name: "not-json", body: `Internal proxy page`, want: `want a chat.completion JSON object`, reason: "says what was expected"},
		{name: "truncated", body: `{"id": "x", "choices": [{"index": 0, "message": {"content": "hi"`, want: `unexpected end of JSON input`, reason: "says what went wrong"},
		{name: "wrong-type", body: `{"choices": {"index": 0}}`, want: `want a chat.completion JSON object`, reason: "choices must be an array"},
		{name: "no-choices", body: `{"id": "x", "object": "chat.completion"}`, want: `no "choices" array`, reason: "choices are required"},
		{name: "no-message", body: `{"choices": [{"index": 0, "text": "hi"}]}`, want: `choice 0 has no "message"`, reason: "a legacy completions body is not a chat completion"},
		{name: "error-200", body: `{"error": {"message": "upstream failed"}}`, want: `upstream failed`, reason: "an error in a 200"},
		{name: "empty", body: ``, want: `want a chat.completion JSON object`, reason: "an empty body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tt.body)
			})
			_, err := api.client(t, nil).Complete(context.Background(), userRequest(1))
			require.Error(t, err)
			assert.ErrorIs(t, err, openai.ErrMalformedResponse)
			contains(t, err.Error(), tt.want)
			assert.Equal(t, 1, api.count(), "a malformed body is not retried")
		})
	}
}

func TestNoChoices(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		reply(w, req.Model, []wireChoice{}, 1, 0)
	})
	_, err := api.client(t, nil).Complete(context.Background(), userRequest(1))
	require.Error(t, err)
	contains(t, err.Error(), "the server returned no choices")
}

func TestNFallback(t *testing.T) {
	tests := []struct {
		name   string
		handle func(w http.ResponseWriter, req wireReq)
		// first and second are the n of each request the client sends on
		// its first and second Complete.
		first, second []int
		reason        string
	}{
		{
			name: "ignores-n",
			handle: func(w http.ResponseWriter, req wireReq) {
				reply(w, req.Model, []wireChoice{textChoice(0, fmt.Sprint("seed ", *req.Seed))}, 10, 2)
			},
			first: []int{3, 1, 1}, second: []int{1, 1, 1},
			reason: "one choice for n = 3: the other two are asked for alone, and n is not sent again",
		},
		{
			name: "rejects-n",
			handle: func(w http.ResponseWriter, req wireReq) {
				if req.n() > 1 {
					apiError(w, http.StatusBadRequest, "n must be 1")
					return
				}
				reply(w, req.Model, []wireChoice{textChoice(0, fmt.Sprint("seed ", *req.Seed))}, 10, 2)
			},
			first: []int{3, 1, 1, 1}, second: []int{1, 1, 1},
			reason: "a 400 for n = 3, then one sample succeeds alone: n it was",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) { tt.handle(w, req) })
			var logs syncBuffer
			c := api.client(t, func(cfg *openai.Config) { cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
			seed := int64(100)
			req := userRequest(3)
			req.Sampling.Temperature = 0.7
			req.Sampling.Seed = &seed
			got, err := c.Complete(context.Background(), req)
			require.NoError(t, err)
			var texts []string
			for _, comp := range got {
				require.Empty(t, comp.Err)
				texts = append(texts, comp.Text)
			}
			// The first sample came from the n = 3 request with the seed as
			// given (ignores-n) or alone with seed + 0 (rejects-n); the
			// others alone with seed + their index.
			assert.Equal(t, []string{"seed 100", "seed 101", "seed 102"}, texts)
			var ns []int
			for _, r := range api.requests() {
				ns = append(ns, r.n())
			}
			assert.Equal(t, tt.first, ns, tt.reason)
			contains(t, logs.String(), "one sample per request from now on")

			before := api.count()
			_, err = c.Complete(context.Background(), req)
			require.NoError(t, err)
			ns = nil
			for _, r := range api.requests()[before:] {
				ns = append(ns, r.n())
			}
			assert.Equal(t, tt.second, ns, "the client remembers")
		})
	}
}

func TestBadRequestNotAboutN(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		apiError(w, http.StatusBadRequest, "prompt too long")
	})
	c := api.client(t, nil)
	_, err := c.Complete(context.Background(), userRequest(3))
	require.Error(t, err)
	contains(t, err.Error(), "prompt too long")
	assert.Equal(t, 2, api.count(), "the n request, then one sample alone, which fails too")
	_, _ = c.Complete(context.Background(), userRequest(2))
	assert.Equal(t, 2, api.requests()[2].n(), "the client still sends n: the 400 was not about n")
}

func TestPartialFailure(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		if i == 0 {
			reply(w, req.Model, []wireChoice{textChoice(0, "first")}, 1, 1)
			return
		}
		if *req.Seed == 2 {
			apiError(w, http.StatusBadRequest, "this one fails")
			return
		}
		answer(w, req)
	})
	seed := int64(0)
	req := userRequest(3)
	req.Sampling.Seed = &seed
	got, err := api.client(t, nil).Complete(context.Background(), req)
	require.NoError(t, err, "some samples succeeded")
	assert.Equal(t, "first", got[0].Text)
	assert.Equal(t, "answer 0", got[1].Text)
	assert.Empty(t, got[1].Err)
	assert.Empty(t, got[2].Text)
	contains(t, got[2].Err, "this one fails")
}

func TestContextCancel(t *testing.T) {
	tests := []struct {
		name   string
		handle func(w http.ResponseWriter, r *http.Request)
		reason string
	}{
		{
			name: "during-wait",
			handle: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "30")
				apiError(w, http.StatusServiceUnavailable, "busy")
			},
			reason: "a 30 s Retry-After wait ends with the context",
		},
		{
			name: "during-request",
			handle: func(w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
			},
			reason: "a hung request ends with the context",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) { tt.handle(w, r) })
			c := api.client(t, func(cfg *openai.Config) { cfg.MaxBackoff = time.Minute })
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := c.Complete(ctx, userRequest(2))
			el := time.Since(start)
			require.Error(t, err)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Less(t, el, time.Second, tt.reason)
			assert.Equal(t, 1, api.count(), "no retry after the context ended")
		})
	}
}

func TestRateLimit(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) { answer(w, req) })
	t.Run("requests", func(t *testing.T) {
		c := api.client(t, func(cfg *openai.Config) { cfg.RequestsPerMinute = 30 })
		clock := newClock(c)
		for range 4 {
			_, err := c.Complete(context.Background(), userRequest(1))
			require.NoError(t, err)
		}
		// 30 a minute is one every 2 s; the first goes at once.
		assert.InDelta(t, 6, clock.total().Seconds(), 0.01, "waits %v", clock.slept())
	})
	t.Run("tokens", func(t *testing.T) {
		c := api.client(t, func(cfg *openai.Config) { cfg.TokensPerMinute = 600 })
		clock := newClock(c)
		req := userRequest(1)
		req.Sampling.MaxTokens = 20
		for range 3 {
			_, err := c.Complete(context.Background(), req)
			require.NoError(t, err)
		}
		// 600 a minute is 10 a second, with a bucket of 10. Each request
		// is estimated at 3 + 2·4 + 29/4 + 20 = 38.25 tokens, taken when
		// the bucket is full, and corrected after to the 12 it used: it
		// leaves the bucket at 10 - 38.25 + 26.25 = -2, and the next
		// request waits 1.2 s for it to fill.
		assert.InDelta(t, 2.4, clock.total().Seconds(), 0.01, "waits %v", clock.slept())
	})
	t.Run("tokens-uncorrected", func(t *testing.T) {
		quiet := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
			fmt.Fprint(w, `{"object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}}]}`)
		})
		c := quiet.client(t, func(cfg *openai.Config) { cfg.TokensPerMinute = 600 })
		clock := newClock(c)
		req := userRequest(1)
		req.Sampling.MaxTokens = 20
		for range 3 {
			_, err := c.Complete(context.Background(), req)
			require.NoError(t, err)
		}
		// A server that reports no usage leaves the estimate standing: each
		// request leaves the bucket at -28.25, and the next waits 3.825 s.
		assert.InDelta(t, 2*3.825, clock.total().Seconds(), 0.01, "waits %v", clock.slept())
		assert.Equal(t, report.Usage{}, c.Stats().Usage)
	})
}

func TestCache(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		if strings.Contains(req.Messages[len(req.Messages)-1].Content, "fail") {
			apiError(w, http.StatusBadRequest, "refused")
			return
		}
		answer(w, req)
	})
	dir := t.TempDir()
	withCache := func(sampled bool) *openai.Client {
		return api.client(t, func(cfg *openai.Config) { cfg.Cache = &openai.Cache{Dir: dir, Sampled: sampled} })
	}
	ctx := context.Background()

	c1 := withCache(false)
	first, err := c1.Complete(ctx, userRequest(3))
	require.NoError(t, err)
	require.Equal(t, 1, api.count())

	c2 := withCache(false)
	again, err := c2.Complete(ctx, userRequest(3))
	require.NoError(t, err)
	assert.Equal(t, 1, api.count(), "an identical request is answered from the cache")
	assert.Equal(t, first, again, "cached completions differ")
	assert.Equal(t, openai.Stats{CacheHits: 3}, c2.Stats())

	// Samples 1 and 2 alone, by index: cached; sample 7: not.
	req := userRequest(2)
	req.Samples = []int{2, 7}
	got, err := c2.Complete(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, first[2].Text, got[0].Text)
	assert.Equal(t, 2, api.count(), "only sample 7 was asked for")
	assert.Equal(t, 1, api.requests()[1].n())

	// Another setting is another key.
	req = userRequest(1)
	req.Sampling.MaxTokens = 5
	_, err = c2.Complete(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, 3, api.count())

	// Sampled requests are not cached unless asked.
	hot := userRequest(1)
	hot.Sampling.Temperature = 0.8
	for range 2 {
		_, err = c2.Complete(ctx, hot)
		require.NoError(t, err)
	}
	assert.Equal(t, 5, api.count(), "temperature > 0 is not cached by default")
	c3 := withCache(true)
	for range 2 {
		_, err = c3.Complete(ctx, hot)
		require.NoError(t, err)
	}
	assert.Equal(t, 6, api.count(), "Cache.Sampled caches them")

	// Failures are not cached.
	bad := userRequest(1)
	bad.Messages = []adapt.Message{{Role: "user", Content: "fail"}}
	for range 2 {
		_, err = c2.Complete(ctx, bad)
		require.Error(t, err)
	}
	assert.Equal(t, 8, api.count(), "a failure is asked again")

	// A torn or foreign entry is a miss, and is replaced.
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 6, "one file per sample: 3 + sample 7 + max_tokens 5 + the sampled one")
	for _, f := range files {
		require.NoError(t, os.WriteFile(f, []byte(`{"key": {"v": 1}, "comp`), 0o644))
	}
	_, err = c2.Complete(ctx, userRequest(1))
	require.NoError(t, err)
	assert.Equal(t, 9, api.count())
	_, err = c2.Complete(ctx, userRequest(1))
	require.NoError(t, err)
	assert.Equal(t, 9, api.count(), "the entry was rewritten")
	tmp, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	assert.Empty(t, tmp, "no temporary files left")
}

func TestSecretNeverShown(t *testing.T) {
	// A server that echoes the bearer token in its errors.
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		apiError(w, http.StatusInternalServerError, "bad key "+r.Header.Get("Authorization"))
	})
	var logs syncBuffer
	c := api.client(t, func(cfg *openai.Config) {
		cfg.MaxRetries = 1
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	_, err := c.Complete(context.Background(), userRequest(1))
	require.Error(t, err)
	var ae *openai.APIError
	require.ErrorAs(t, err, &ae)
	for what, s := range map[string]string{
		"error": err.Error(), "APIError": ae.Error(), "log": logs.String(),
		"%v": fmt.Sprintf("%v", c), "%+v": fmt.Sprintf("%+v", c), "%#v": fmt.Sprintf("%#v", c),
	} {
		assert.NotContains(t, s, testKey, what)
	}
	contains(t, err.Error(), "bad key Bearer [redacted]")
	contains(t, logs.String(), "retrying")

	// Nor in a failed sample's Err.
	seed := int64(0)
	req := userRequest(2)
	req.Sampling.Seed = &seed
	api2 := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		if req.n() > 1 || *req.Seed == 0 {
			reply(w, req.Model, []wireChoice{textChoice(0, "ok")}, 1, 1)
			return
		}
		apiError(w, http.StatusBadRequest, "echo "+r.Header.Get("Authorization"))
	})
	got, err := api2.client(t, nil).Complete(context.Background(), req)
	require.NoError(t, err)
	contains(t, got[1].Err, "echo Bearer [redacted]")
}

func TestConfig(t *testing.T) {
	tests := []struct {
		name   string
		cfg    *openai.Config
		want   string
		reason string
	}{
		{name: "nil", cfg: nil, want: "no model named", reason: "Model is required"},
		{name: "no-endpoint", cfg: &openai.Config{Model: "m"}, want: "no endpoint named: set Config.BaseURL (OPENAI_BASE_URL)", reason: "no base URL and no key: nowhere to send"},
		{name: "bad-url", cfg: &openai.Config{Model: "m", BaseURL: "localhost:8000"}, want: "is not an http or https URL", reason: "a scheme is needed"},
		{name: "query", cfg: &openai.Config{Model: "m", BaseURL: "http://h/v1?x=1"}, want: "has a query", reason: "the path is appended"},
		{name: "negative", cfg: &openai.Config{Model: "m", BaseURL: "http://h", Timeout: -1}, want: "must not be negative", reason: "durations"},
		{name: "rpm", cfg: &openai.Config{Model: "m", BaseURL: "http://h", RequestsPerMinute: -1}, want: "must not be negative", reason: "limits"},
		{name: "price", cfg: &openai.Config{Model: "m", BaseURL: "http://h", Prices: map[string]openai.Price{"m": {Input: -1}}}, want: "price of \"m\"", reason: "prices"},
		{name: "cache", cfg: &openai.Config{Model: "m", BaseURL: "http://h", Cache: &openai.Cache{}}, want: "Cache.Dir is empty", reason: "a cache needs a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openai.New(tt.cfg)
			require.Error(t, err, tt.reason)
			contains(t, err.Error(), tt.want)
		})
	}
	// A key alone means OpenAI.
	c, err := openai.New(&openai.Config{Model: "gpt-4o", APIKey: testKey})
	require.NoError(t, err)
	assert.Equal(t, "openai.Client(gpt-4o at https://api.openai.com/v1/chat/completions)", c.String())
	// A full endpoint URL is taken as it is; user info is not shown.
	c, err = openai.New(&openai.Config{Model: "m", BaseURL: "http://user:pw@h:1/v1/chat/completions/"})
	require.NoError(t, err)
	assert.Equal(t, "openai.Client(m at http://user:xxxxx@h:1/v1/chat/completions)", c.String())
}

func TestEnv(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_MODEL", "")
	fromEnv := func(model string) (*openai.Client, error) {
		cfg := openai.EnvConfig(model)
		return openai.New(&cfg)
	}
	_, err := fromEnv("m")
	require.Error(t, err)
	contains(t, err.Error(), "no endpoint named")
	_, err = fromEnv("")
	contains(t, err.Error(), "OPENAI_MODEL")

	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) { answer(w, req) })
	t.Setenv("OPENAI_BASE_URL", api.URL+"/v1/")
	t.Setenv("OPENAI_API_KEY", testKey)
	t.Setenv("OPENAI_MODEL", "env-model")
	assert.Equal(t, openai.Config{BaseURL: api.URL + "/v1/", APIKey: testKey, Model: "env-model"}, openai.EnvConfig(""))
	assert.Equal(t, "other", openai.EnvConfig("other").Model, "the argument wins")
	c, err := fromEnv("")
	require.NoError(t, err)
	assert.Equal(t, "env-model", c.Name())
	_, err = c.Complete(context.Background(), userRequest(1))
	require.NoError(t, err)
	assert.Equal(t, "env-model", api.requests()[0].Model)
}

func TestCost(t *testing.T) {
	prices := map[string]openai.Price{"gpt-4o": {Input: 2.5, Output: 10}}
	c, err := openai.New(&openai.Config{Model: "gpt-4o", APIKey: testKey, Prices: prices})
	require.NoError(t, err)
	prices["gpt-4o"] = openai.Price{} // the client keeps its own copy
	cost, ok := c.Cost(report.Usage{PromptTokens: 2_000_000, CompletionTokens: 500_000})
	assert.True(t, ok)
	assert.InDelta(t, 10.0, cost, 1e-9)

	c, err = openai.New(&openai.Config{Model: "other", APIKey: testKey, Prices: prices})
	require.NoError(t, err)
	_, ok = c.Cost(report.Usage{PromptTokens: 1})
	assert.False(t, ok, "no price for the model")
}

func TestBadSamples(t *testing.T) {
	c, err := openai.New(&openai.Config{Model: "m", BaseURL: "http://127.0.0.1:1"})
	require.NoError(t, err)
	req := userRequest(2)
	req.Samples = []int{0}
	_, err = c.Complete(context.Background(), req)
	require.Error(t, err)
	contains(t, err.Error(), "1 sample indices for 2 samples")
}

func TestTransportError(t *testing.T) {
	api := newAPI(t, nil)
	url := api.URL
	api.Close() // nothing listens any more
	c, err := openai.New(&openai.Config{Model: "m", BaseURL: url, MaxRetries: 2, Backoff: time.Millisecond})
	require.NoError(t, err)
	_, err = c.Complete(context.Background(), userRequest(1))
	require.Error(t, err)
	contains(t, err.Error(), "connection refused")
	contains(t, err.Error(), "gave up after 3 attempts")
	assert.Equal(t, int64(3), c.Stats().Requests)
	assert.False(t, errors.Is(err, openai.ErrMalformedResponse))
}
