package openai_test

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// TestPreflightRetries: the preflight goes through the client's retries
// (a 429, a 5xx, a timeout; Retry-After honoured), so that one transient
// error does not end a run before any work, and fails at once, with one
// request, on what no retry mends (401, 403, 404, a refused connection).
// The server is a real HTTP server on the loopback.
func TestPreflightRetries(t *testing.T) {
	tests := []struct {
		name     string
		fail     []int // the status of each request before a 200; 0 is a timeout
		after    string
		wantErr  bool
		requests int
		slept    []time.Duration // when the wait is the server's
	}{
		{"429 then 200", []int{429}, "", false, 2, nil},
		{"429 with Retry-After", []int{429, 429}, "3", false, 3, []time.Duration{3 * time.Second, 3 * time.Second}},
		{"500 then 200", []int{500}, "", false, 2, nil},
		{"502, 503 then 200", []int{502, 503}, "", false, 3, nil},
		{"a timeout then 200", []int{0}, "", false, 2, nil},
		{"401", []int{401}, "", true, 1, nil},
		{"403", []int{403}, "", true, 1, nil},
		{"404", []int{404}, "", true, 1, nil},
		{"500 for good", []int{500, 500, 500}, "", true, 3, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
				if i >= len(tc.fail) {
					reply(w, req.Model, []wireChoice{textChoice(0, "OK")}, 10, 1)
					return
				}
				if tc.fail[i] == 0 {
					select { // longer than the client's Timeout
					case <-r.Context().Done():
					case <-time.After(5 * time.Second):
					}
					return
				}
				if tc.after != "" {
					w.Header().Set("Retry-After", tc.after)
				}
				apiError(w, tc.fail[i], "try later")
			})
			c := api.client(t, func(cfg *openai.Config) { cfg.MaxRetries = 2; cfg.Timeout = 300 * time.Millisecond })
			clock := newClock(c)
			err := c.Preflight(context.Background())
			assert.Equal(t, tc.requests, api.count(), "requests sent")
			if tc.wantErr {
				require.Error(t, err)
				if tc.requests == 1 {
					assert.ErrorIs(t, err, adapt.ErrModelUnavailable)
					assert.Empty(t, clock.slept(), "no wait before failing")
				}
				return
			}
			require.NoError(t, err)
			if tc.slept != nil {
				assert.Equal(t, tc.slept, clock.slept(), "the waits the server asked for")
			}
			assert.Equal(t, int64(len(tc.fail)), c.Stats().Retries)
		})
	}

	t.Run("refused connection", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		dead := "http://" + l.Addr().String() + "/v1"
		require.NoError(t, l.Close())
		c, err := openai.New(&openai.Config{BaseURL: dead, Model: "m"})
		require.NoError(t, err)
		clock := newClock(c)
		err = c.Preflight(context.Background())
		require.ErrorIs(t, err, adapt.ErrModelUnavailable)
		assert.Empty(t, clock.slept(), "no retry")
		assert.Equal(t, int64(1), c.Stats().Requests)
	})
}

// TestPreflightRateLimitedShards: a run whose preflight meets a 429 (a
// batch of shards starting together against a rate-limited endpoint)
// waits and runs, rather than ending before any work.
func TestPreflightRateLimitedShards(t *testing.T) {
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		if i == 0 {
			w.Header().Set("Retry-After", "1")
			apiError(w, http.StatusTooManyRequests, "Rate limit reached")
			return
		}
		reply(w, req.Model, []wireChoice{textChoice(0, incAnswer)}, 10, 2)
	})
	c := api.client(t, nil)
	newClock(c)
	rep, err := adapt.Draw(context.Background(), []adapt.Task{incTask}, c, nil)
	require.NoError(t, err, "the preflight's 429 is retried")
	assert.Zero(t, rep.Outcomes[report.OutcomeModelError])
	assert.Equal(t, 2, rep.Usage.CompletionTokens, "the sample drawn")
	assert.Equal(t, 3, api.count(), "the preflight twice, then the sample")
}
