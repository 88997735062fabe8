package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// testKey is the API key the test servers expect.
const testKey = "sk-test-5ecr3t-key"

// wireReq is a chat-completions request body as the wire format defines
// it; the server decodes with DisallowUnknownFields, so that a field the
// client misnames fails the test.
type wireReq struct {
	Model               string          `json:"model"`
	Messages            []adapt.Message `json:"messages"`
	N                   *int            `json:"n"`
	Temperature         *float64        `json:"temperature"`
	TopP                *float64        `json:"top_p"`
	MaxTokens           *int            `json:"max_tokens"`
	MaxCompletionTokens *int            `json:"max_completion_tokens"`
	Seed                *int64          `json:"seed"`
	Stop                []string        `json:"stop"`
	Logprobs            *bool           `json:"logprobs"`
}

func (r wireReq) n() int {
	if r.N == nil {
		return 1
	}
	return *r.N
}

// fakeAPI is an OpenAI-compatible server written for the tests. It checks
// the method, path, headers and body of every request, records the bodies,
// and lets handle answer; handle gets the request's number, from 0.
type fakeAPI struct {
	*httptest.Server
	t      testing.TB
	handle func(w http.ResponseWriter, r *http.Request, req wireReq, i int)

	mu   sync.Mutex
	reqs []wireReq
}

func newAPI(t testing.TB, handle func(w http.ResponseWriter, r *http.Request, req wireReq, i int)) *fakeAPI {
	t.Helper()
	a := &fakeAPI{t: t, handle: handle}
	a.Server = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.Close)
	return a
}

func (a *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	bad := func(format string, args ...any) {
		a.t.Errorf("fake API: "+format, args...)
		http.Error(w, `{"error": {"message": "bad request"}}`, http.StatusBadRequest)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		bad("got %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		bad("Authorization = %q", got)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		bad("Content-Type = %q", ct)
		return
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	var req wireReq
	if err := dec.Decode(&req); err != nil {
		bad("body: %v", err)
		return
	}
	if req.Model == "" || req.Temperature == nil || len(req.Messages) == 0 {
		bad("body lacks model, temperature or messages: %+v", req)
		return
	}
	a.mu.Lock()
	i := len(a.reqs)
	a.reqs = append(a.reqs, req)
	a.mu.Unlock()
	a.handle(w, r, req, i)
}

// requests returns the bodies received so far.
func (a *fakeAPI) requests() []wireReq {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]wireReq(nil), a.reqs...)
}

func (a *fakeAPI) count() int { return len(a.requests()) }

// config returns a Config for the server with fast retries.
func (a *fakeAPI) config() openai.Config {
	return openai.Config{BaseURL: a.URL + "/v1", APIKey: testKey, Model: "test-model", Backoff: time.Millisecond, MaxBackoff: 10 * time.Second}
}

func (a *fakeAPI) client(t testing.TB, edit func(*openai.Config)) *openai.Client {
	t.Helper()
	cfg := a.config()
	if edit != nil {
		edit(&cfg)
	}
	c, err := openai.New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wireChoice is one choice of a response.
type wireChoice struct {
	Index        int            `json:"index"`
	Message      map[string]any `json:"message"`
	FinishReason string         `json:"finish_reason"`
	Logprobs     any            `json:"logprobs,omitempty"`
}

func textChoice(i int, text string) wireChoice {
	return wireChoice{Index: i, Message: map[string]any{"role": "assistant", "content": text}, FinishReason: "stop"}
}

// reply writes a chat.completion with these choices and usage.
func reply(w http.ResponseWriter, model string, choices []wireChoice, prompt, completion int) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id":      "chatcmpl-1",
		"object":  "chat.completion",
		"created": 1700000000,
		"model":   model,
		"choices": choices,
		"usage":   map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	})
}

// answer replies to req with n choices "answer k" (k the choice index),
// 10 prompt tokens and 2 completion tokens per choice.
func answer(w http.ResponseWriter, req wireReq) {
	var chs []wireChoice
	for k := range req.n() {
		chs = append(chs, textChoice(k, fmt.Sprintf("answer %d", k)))
	}
	reply(w, req.Model, chs, 10, 2*len(chs))
}

// apiError writes an OpenAI-style error.
func apiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error": {"message": %q, "type": "test_error", "code": null}}`, msg)
}

// fakeClock is a clock whose sleeps return at once and are recorded.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
}

func newClock(c *openai.Client) *fakeClock {
	fc := &fakeClock{t: time.Now()}
	openai.SetClock(c, fc.now, fc.sleep)
	return fc
}

func (f *fakeClock) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	f.t = f.t.Add(d)
	return ctx.Err()
}

func (f *fakeClock) slept() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

func (f *fakeClock) total() time.Duration {
	var s time.Duration
	for _, d := range f.slept() {
		s += d
	}
	return s
}

// syncBuffer is a bytes.Buffer safe for a logger used from several
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var _ io.Writer = (*syncBuffer)(nil)

func userRequest(n int) adapt.Request {
	return adapt.Request{
		Messages: []adapt.Message{{Role: "system", Content: "You adapt code."}, {Role: "user", Content: "Rename f to g."}},
		Sampling: report.Sampling{N: n},
	}
}

func contains(t testing.TB, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%q does not contain %q", s, sub)
	}
}
