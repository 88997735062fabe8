package openai_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// tenTasks are incTask ten times over, under other IDs.
func tenTasks() []adapt.Task {
	tasks := make([]adapt.Task, 10)
	for i := range tasks {
		tasks[i] = incTask
		tasks[i].ID = "py-inc-" + string(rune('a'+i))
	}
	return tasks
}

// TestDeadEndpointFailsFast: a client pointed at a port nothing listens
// on, with its default retries, ends Evaluate in seconds (it took five
// minutes: six tries with doubling waits inside three attempts), before
// any reference runs, with an error naming the endpoint and wrapping
// ErrModelUnavailable; the journal holds its header only.
func TestDeadEndpointFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	dead := "http://" + l.Addr().String() + "/v1"
	require.NoError(t, l.Close())
	c, err := openai.New(&openai.Config{BaseURL: dead, Model: "m"})
	require.NoError(t, err)
	runner := &countRuns{}
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	_, err = adapt.Evaluate(ctx, tenTasks(), c, &adapt.Options{Runner: runner, Journal: journal})
	took := time.Since(start)
	require.Error(t, err)
	assert.ErrorIs(t, err, adapt.ErrModelUnavailable)
	assert.NotErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), dead, "the error names the endpoint")
	assert.Contains(t, err.Error(), "preflight")
	assert.Less(t, took, 5*time.Second)
	assert.Zero(t, runner.n.Load(), "no reference ran")
	t.Logf("a dead endpoint ended the run in %s: %v", took.Round(time.Millisecond), err)
}

// TestCircuitBreaker: a server that answers the preflight, then says 404
// to every request (the model was taken away mid-run), stops the run after
// MaxModelErrors errors in a row, not after every task's three attempts;
// the journal keeps the checks done, and the progress shows the model
// errors apart from the checks.
func TestCircuitBreaker(t *testing.T) {
	sb, err := sandbox.New(nil)
	if errors.Is(err, sandbox.ErrNoNamespaces) {
		t.Skip(err)
	}
	require.NoError(t, err)
	defer sb.Close()
	var gone atomic.Bool
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		if gone.Load() {
			http.Error(w, `{"error": {"message": "The model 'test-model' does not exist"}}`, http.StatusNotFound)
			return
		}
		reply(w, req.Model, []wireChoice{textChoice(0, incAnswer)}, 10, 2)
		if i == 2 {
			gone.Store(true) // the preflight and two samples answered
		}
	})
	c := api.client(t, nil)
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	var last report.Progress
	opts := &adapt.Options{Runner: sb, Journal: journal, ModelConcurrency: 1, Progress: func(p report.Progress) { last = p }}
	_, err = adapt.Evaluate(context.Background(), tenTasks(), c, opts)
	require.Error(t, err)
	assert.ErrorIs(t, err, adapt.ErrModelUnavailable)
	assert.Contains(t, err.Error(), "stopped after 3 model errors in a row")
	assert.Contains(t, err.Error(), "404 Not Found: The model 'test-model' does not exist")
	assert.LessOrEqual(t, api.count(), 1+2+3, "the preflight, two answers, three errors: no request asked again")
	assert.Equal(t, 3, last.ModelErrors)
	b, err := os.ReadFile(journal)
	require.NoError(t, err)
	assert.Equal(t, 5, strings.Count(string(b), `"kind":"completion"`), "two answers and three errors are kept")

	// The model is back: the run resumes, asking only for what it lacks.
	gone.Store(false)
	before := api.count()
	rep, err := adapt.Evaluate(context.Background(), tenTasks(), api.client(t, func(cfg *openai.Config) { cfg.Model = "test-model" }), opts)
	require.NoError(t, err)
	assert.Equal(t, 1+8, api.count()-before, "the preflight and the eight samples without an answer")
	assert.Equal(t, 1.0, rep.PassAtK[0].Value)
}

// countRuns is a Runner that counts the runs it is asked for and runs none.
type countRuns struct{ n atomic.Int64 }

func (c *countRuns) Run(ctx context.Context, j exec.Job) (exec.Result, error) {
	c.n.Add(1)
	return exec.Result{Status: exec.StatusInternal, Detail: "not run"}, nil
}
