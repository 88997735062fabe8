package openai_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// incTask asks for f(x) = x + 1 in m.py, checked by a unittest.
var incTask = adapt.Task{
	ID:       "py-inc",
	Language: adapt.Python,
	Code:     "def g(x):\n    return x\n",
	Target: adapt.Target{
		Path:     "m.py",
		Function: "f",
		Content:  "def f(x):\n    return x + 1\n",
	},
	Files:       []adapt.File{{Path: "test_m.py", Content: "import unittest\nfrom m import f\n\n\nclass T(unittest.TestCase):\n    def test_f(self):\n        self.assertEqual(f(1), 2)\n"}},
	Requirement: adapt.Requirement{Task: "Rename g to f and make it return x + 1."},
	Reference:   "def f(x):\n    return x + 1\n",
	Tests:       []adapt.Test{{Name: "test_m.T.test_f", File: "test_m.py"}},
}

const incAnswer = "Here is the adapted function:\n\n```python\ndef f(x):\n    return x + 1\n```\n"

// TestEvaluateCache runs a real evaluation twice with the same cache
// directory and a fresh journal: the second makes no request.
func TestEvaluateCache(t *testing.T) {
	sb, err := sandbox.New(nil)
	if errors.Is(err, sandbox.ErrNoNamespaces) {
		t.Skip(err)
	}
	require.NoError(t, err)
	defer sb.Close()

	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		var chs []wireChoice
		for k := range req.n() {
			chs = append(chs, textChoice(k, incAnswer))
		}
		reply(w, req.Model, chs, 50, 20*len(chs))
	})
	dir := t.TempDir()
	run := func(journal string) (*report.Report, openai.Stats) {
		t.Helper()
		c := api.client(t, func(cfg *openai.Config) {
			cfg.Cache = &openai.Cache{Dir: filepath.Join(dir, "cache")}
			cfg.Prices = map[string]openai.Price{"test-model": {Input: 1, Output: 2}}
		})
		rep, err := adapt.Evaluate(context.Background(), []adapt.Task{incTask}, c, &adapt.Options{
			Samples: 3,
			Runner:  sb,
			Journal: filepath.Join(dir, journal),
		})
		require.NoError(t, err)
		return rep, c.Stats()
	}

	rep1, st1 := run("first.jsonl")
	p1, _ := rep1.Score(1)
	assert.Equal(t, 1.0, p1, "outcomes %v", rep1.Outcomes)
	assert.Equal(t, 1, api.count(), "three samples in one request with n = 3")
	assert.Equal(t, openai.Stats{Requests: 1, Usage: report.Usage{PromptTokens: 50, CompletionTokens: 60}}, st1)
	assert.Equal(t, report.Usage{PromptTokens: 50, CompletionTokens: 60}, rep1.Usage)
	require.NotNil(t, rep1.Cost)
	assert.InDelta(t, (50*1+60*2)/1e6, *rep1.Cost, 1e-12)

	rep2, st2 := run("second.jsonl")
	assert.Equal(t, 1, api.count(), "the second evaluation made no request")
	assert.Equal(t, openai.Stats{CacheHits: 3}, st2)
	var j1, j2 bytes.Buffer
	require.NoError(t, rep1.WriteJSON(&j1))
	require.NoError(t, rep2.WriteJSON(&j2))
	assert.Equal(t, j1.String(), j2.String(), "the cached run's report differs")
}

// TestResumeWithAnotherModelIsRefused: a journal written with one model
// is not resumed with another under the same Config.Name: the client's
// identity (endpoint and model) is part of the evaluation.
func TestResumeWithAnotherModelIsRefused(t *testing.T) {
	sb, err := sandbox.New(nil)
	if errors.Is(err, sandbox.ErrNoNamespaces) {
		t.Skip(err)
	}
	require.NoError(t, err)
	defer sb.Close()
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		text := incAnswer
		if req.Model == "small" {
			text = "I cannot."
		}
		reply(w, req.Model, []wireChoice{textChoice(0, text)}, 10, 2)
	})
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	run := func(model string) (*report.Report, error) {
		c := api.client(t, func(cfg *openai.Config) { cfg.Model, cfg.Name = model, "baseline" })
		return adapt.Evaluate(context.Background(), []adapt.Task{incTask}, c, &adapt.Options{Runner: sb, Journal: journal})
	}
	rep, err := run("big")
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("openai %s/v1/chat/completions model %q", api.URL, "big"), rep.Run.ModelIdentity)
	assert.NotContains(t, rep.Run.ModelIdentity, testKey)
	_, err = run("big")
	require.NoError(t, err, "the same model resumes")
	_, err = run("small")
	require.ErrorIs(t, err, adapt.ErrJournalMismatch)
	assert.Contains(t, err.Error(), `model identity is "openai `)
	assert.Contains(t, err.Error(), `model \"small\"" now`)
}

// TestRefusalsAreKept: a refusal (message.refusal) and a content_filter
// stop keep their text and finish reason in the sample, are scored as
// their text is (no code), and are counted in the report, through the
// journal too.
func TestRefusalsAreKept(t *testing.T) {
	sb, err := sandbox.New(nil)
	if errors.Is(err, sandbox.ErrNoNamespaces) {
		t.Skip(err)
	}
	require.NoError(t, err)
	defer sb.Close()
	api := newAPI(t, func(w http.ResponseWriter, r *http.Request, req wireReq, i int) {
		reply(w, req.Model, []wireChoice{
			textChoice(0, incAnswer),
			{Index: 1, Message: map[string]any{"role": "assistant", "content": nil, "refusal": "I can't help with that."}, FinishReason: "stop"},
			{Index: 2, Message: map[string]any{"role": "assistant", "content": ""}, FinishReason: "content_filter"},
		}, 30, 12)
	})
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	rep, err := adapt.Evaluate(context.Background(), []adapt.Task{incTask}, api.client(t, nil), &adapt.Options{Runner: sb, Samples: 3, Journal: journal})
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Refusals)
	assert.Equal(t, 2, rep.Outcomes[report.OutcomeNoCode], "scored as what they are")
	s := rep.PerTask[0].Samples
	require.Len(t, s, 3)
	assert.Equal(t, "I can't help with that.", s[1].Completion.Refusal)
	assert.Equal(t, "content_filter", s[2].Completion.FinishReason)
	var md bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "| samples refused or filtered by the provider | 2 |")
	merged, err := adapt.Merge([]adapt.Task{incTask}, []string{journal}, nil)
	require.NoError(t, err)
	assert.Equal(t, rep, merged)
	b, err := os.ReadFile(journal)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"refusal":"I can't help with that."`, "the refusal is kept in the journal")
}
