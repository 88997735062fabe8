package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzParseResponse feeds arbitrary bytes to the response parser: it must
// never panic, and what it accepts must survive encoding and parsing again
// unchanged, and turn into completions whose usage sums to the response's.
func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{
		`{"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "m", "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}`,
		`{"choices": [{"index": 1, "message": {"content": "b"}}, {"index": 0, "message": {"content": "<think>r</think>a", "reasoning_content": "rc"}, "logprobs": {"content": [{"token": "a", "logprob": -0.5}]}}], "usage": {"prompt_tokens": 9, "completion_tokens": 7}}`,
		`{"choices": [{"index": 0, "message": {"content": null}, "finish_reason": null}]}`,
		`{"choices": []}`,
		`{"error": {"message": "x"}}`,
		`{"choices": [{"index": 5, "message": {"content": "x</think>y"}}, {"index": 5, "message": {}}], "usage": {"prompt_tokens": -1, "completion_tokens": -9}}`,
		`{"choices": [{}]}`,
		`[]`,
		`null`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseResponse(b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), ErrMalformedResponse.Error()) {
				t.Fatalf("error %q does not start with %q", err, ErrMalformedResponse)
			}
			return
		}
		again, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("cannot encode a parsed response: %v", err)
		}
		r2, err := parseResponse(again)
		if err != nil {
			t.Fatalf("cannot parse %s, the encoding of a parsed response: %v", again, err)
		}
		require.Equal(t, r, r2, "round trip changed the response")
		{
			comps := completions(r)
			if len(comps) != len(r.Choices) {
				t.Fatalf("%d completions for %d choices", len(comps), len(r.Choices))
			}
			if r.Usage == nil || len(comps) == 0 {
				return
			}
			var p, c int
			for _, x := range comps {
				if x.Usage.PromptTokens < 0 || x.Usage.CompletionTokens < 0 {
					t.Fatalf("negative usage %+v", x.Usage)
				}
				p += x.Usage.PromptTokens
				c += x.Usage.CompletionTokens
			}
			if p != max(r.Usage.PromptTokens, 0) || c != max(r.Usage.CompletionTokens, 0) {
				t.Fatalf("usage sums to %d/%d, want %+v", p, c, *r.Usage)
			}
		}
	})
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name    string
		total   int
		weights []int
		want    []int
	}{
		{"even", 9, []int{1, 1, 1}, []int{3, 3, 3}},
		{"remainder-last", 10, []int{1, 1, 1}, []int{3, 3, 4}},
		{"zero-weights", 5, []int{0, 0}, []int{2, 3}},
		{"huge", int(^uint(0) >> 1), []int{1, 1}, []int{int(^uint(0)>>1) / 2, int(^uint(0)>>1) - int(^uint(0)>>1)/2}},
		{"one", 7, []int{0}, []int{7}},
		{"none", 7, nil, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := split(tt.total, tt.weights)
			sum := 0
			for _, x := range got {
				sum += x
			}
			if len(got) > 0 && sum != tt.total {
				t.Errorf("parts sum to %d, want %d", sum, tt.total)
			}
			if tt.name != "huge" {
				assert.Equal(t, tt.want, got, tt.name)
			}
		})
	}
}
