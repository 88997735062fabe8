package adapt_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// wrongModel answers f(x) = x: right on t00 alone.
var wrongModel = adapt.ModelFunc("paid", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	out := make([]report.Completion, len(req.Samples))
	for i, s := range req.Samples {
		out[i] = report.Completion{Text: "```python\ndef f(x):\n    return x\n```\n", FinishReason: "stop",
			Usage: report.Usage{PromptTokens: 100, CompletionTokens: 10 + s}}
	}
	return out, nil
})

// journalLines runs an evaluation with a journal and returns its lines,
// each with its newline.
func journalLines(t *testing.T, tasks []adapt.Task, model adapt.Model, opts adapt.Options) []string {
	t.Helper()
	opts.Journal = filepath.Join(t.TempDir(), "run.jsonl")
	_, err := adapt.Evaluate(context.Background(), tasks, model, &opts)
	require.NoError(t, err)
	b, err := os.ReadFile(opts.Journal)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	require.Empty(t, lines[len(lines)-1], "the journal ends with a whole line")
	return lines[:len(lines)-1]
}

// lineOf is the index of the first line holding every one of parts.
func lineOf(t *testing.T, lines []string, parts ...string) int {
	t.Helper()
	for i, l := range lines {
		if !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(l, p) }) {
			return i
		}
	}
	require.Failf(t, "no such line", "%q", parts)
	return -1
}

// oldSum gives a line the checksum of format 3 (the line alone), as one
// who edits a line and signs it again would.
func oldSum(line string) string {
	body := strings.TrimSuffix(line, "\n")
	i := strings.LastIndex(body, `,"sum":"`)
	body = body[:i] + "}"
	sum := sha256.Sum256([]byte(body))
	return body[:len(body)-1] + `,"sum":"` + hex.EncodeToString(sum[:8]) + "\"}\n"
}

// TestJournalChainBreaks: a journal's lines are chained, so that a line
// deleted, moved, copied from another journal of the same tasks (its
// checksum intact) or edited and signed again breaks the chain at a line
// resume and Merge both name, rather than change the numbers (a deleted
// completion under-counted the tokens; copied results moved pass@1). A
// journal cut at a whole line (a crash) still resumes to the uninterrupted
// report.
func TestJournalChainBreaks(t *testing.T) {
	tasks := pyTasks(3)
	opts := adapt.Options{Runner: runner(t), Samples: 2, ModelConcurrency: 1, Parallelism: 1}
	lines := journalLines(t, tasks, paidModel(0), opts)
	other := journalLines(t, tasks, wrongModel, opts)
	comp := lineOf(t, lines, `"kind":"completion"`, `"task":"t01"`, `"sample":0`)
	res := lineOf(t, lines, `"kind":"result"`, `"task":"t01"`, `"sample":0`)
	require.Less(t, comp, res)

	tests := []struct {
		name string
		edit func(l []string) []string
		at   int // the 0-based line the chain breaks at, in the edited journal
	}{
		{"completion deleted", func(l []string) []string { return slices.Delete(l, comp, comp+1) }, comp},
		{"result deleted", func(l []string) []string { return slices.Delete(l, res, res+1) }, res},
		{"completion and result swapped", func(l []string) []string { l[comp], l[res] = l[res], l[comp]; return l }, comp},
		{"result from another journal", func(l []string) []string {
			l[res] = other[lineOf(t, other, `"kind":"result"`, `"task":"t01"`, `"sample":0`)]
			return l
		}, res},
		{"result edited and signed again", func(l []string) []string {
			l[res] = oldSum(strings.ReplaceAll(l[res], `"passed"`, `"failed"`))
			return l
		}, res},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			edited := tc.edit(slices.Clone(lines))
			require.NotEqual(t, lines, edited)
			journal := filepath.Join(t.TempDir(), "run.jsonl")
			require.NoError(t, os.WriteFile(journal, []byte(strings.Join(edited, "")), 0o644))
			want := fmt.Sprintf("run.jsonl:%d: the line does not match its checksum", tc.at+1)
			_, err := adapt.Merge(tasks, []string{journal}, nil)
			require.Error(t, err, "Merge refuses the journal")
			assert.Contains(t, err.Error(), want)
			o := opts
			o.Journal = journal
			_, err = adapt.Evaluate(context.Background(), tasks, paidModel(0), &o)
			require.Error(t, err, "resume refuses the journal")
			assert.Contains(t, err.Error(), want)
		})
	}

	t.Run("cut at a whole line", func(t *testing.T) {
		o := opts
		whole, err := adapt.Evaluate(context.Background(), tasks, paidModel(0), &o)
		require.NoError(t, err)
		o.Journal = filepath.Join(t.TempDir(), "run.jsonl")
		require.NoError(t, os.WriteFile(o.Journal, []byte(strings.Join(lines[:res], "")), 0o644))
		resumed, err := adapt.Evaluate(context.Background(), tasks, paidModel(0), &o)
		require.NoError(t, err, "a journal cut at a whole line is a crash's: it resumes")
		assert.Equal(t, whole, resumed)
	})
}

// TestJournalResultNeedsItsCompletion: a result whose completion no line
// before it holds is refused by name, even in a chain made whole again
// (a forger who knows the scheme): its answer and tokens would be lost
// from the report.
func TestJournalResultNeedsItsCompletion(t *testing.T) {
	tasks := pyTasks(3)
	opts := adapt.Options{Runner: runner(t), Samples: 2, ModelConcurrency: 1, Parallelism: 1}
	lines := journalLines(t, tasks, paidModel(0), opts)
	comp := lineOf(t, lines, `"kind":"completion"`, `"task":"t01"`, `"sample":1`)
	res := lineOf(t, lines, `"kind":"result"`, `"task":"t01"`, `"sample":1`)
	edited := slices.Delete(slices.Clone(lines), comp, comp+1)
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	require.NoError(t, os.WriteFile(journal, adapt.Rechain([]byte(strings.Join(edited, ""))), 0o644))
	want := fmt.Sprintf(`run.jsonl:%d: the result of task "t01" sample 1 (round 0) has no completion before it`, res)
	_, err := adapt.Merge(tasks, []string{journal}, nil)
	require.Error(t, err, "Merge refuses the journal")
	assert.Contains(t, err.Error(), want)
	opts.Journal = journal
	_, err = adapt.Evaluate(context.Background(), tasks, paidModel(0), &opts)
	require.Error(t, err, "resume refuses the journal")
	assert.Contains(t, err.Error(), want)
}
