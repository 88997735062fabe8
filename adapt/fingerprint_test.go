package adapt_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	aexec "github.com/adaptbench/adaptbench/exec"
)

// TestFingerprintHoldsTheSandbox: the limits the checks ran under (after
// defaults) and the runner's kind are part of the evaluation: a resume
// under other limits or another runner is refused, and so is a merge of
// shards run under different limits; each error names the setting.
func TestFingerprintHoldsTheSandbox(t *testing.T) {
	tasks := pyTasks(4)
	dir := t.TempDir()
	journal := filepath.Join(dir, "run.jsonl")
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: runner(t), Journal: journal})
	require.NoError(t, err)
	require.NotNil(t, rep.Run.Limits, "the report says which limits were in force")
	assert.Equal(t, aexec.Limits{}.WithDefaults(), *rep.Run.Limits)
	assert.Equal(t, "*exec.ForkServer", rep.Run.Runner, "the name journals of format 3 record")

	tests := []struct {
		name   string
		opts   adapt.Options
		want   string
		reason string
	}{
		{"wall time", adapt.Options{Runner: runner(t), Limits: aexec.Limits{WallTime: 2 * time.Millisecond}},
			"limit WallTime is 21s in the journal and 2ms now", "a run stopped under 2 ms limits is not resumed under the defaults"},
		{"default spelled out", adapt.Options{Runner: runner(t), Limits: aexec.Limits{CPUTime: 10 * time.Second}},
			"", "the effective limits count, not how they were written"},
		{"memory", adapt.Options{Runner: runner(t), Limits: aexec.Limits{Memory: 256 * aexec.MiB}},
			"limit Memory is 1GiB in the journal and 256MiB now", "a smaller memory limit"},
		{"runner", adapt.Options{Runner: newSandbox(t)},
			`runner is "*exec.ForkServer" in the journal and "*exec.Sandbox" now`, "another kind of runner"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opts
			o.Journal = journal
			_, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &o)
			if tc.want == "" {
				require.NoError(t, err, tc.reason)
				return
			}
			require.ErrorIs(t, err, adapt.ErrJournalMismatch, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}

	// The pass rule is the task's: a task whose rule changed is another
	// task, and its records are refused (as on main: the task hash holds
	// it).
	ruled := pyTasks(4)
	ruled[2].PassRule = adapt.PassExitStatus
	_, err = adapt.Evaluate(context.Background(), ruled, adapt.Reference, &adapt.Options{Runner: runner(t), Journal: journal})
	require.ErrorIs(t, err, adapt.ErrJournalMismatch, "another pass rule")
	assert.Contains(t, err.Error(), "the task set differs")

	// Shards run under different limits do not merge.
	var journals []string
	for i := range 2 {
		o := adapt.Options{Runner: runner(t), Shard: adapt.Shard{Index: i, Count: 2}, Journal: filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i))}
		if i == 1 {
			o.Limits.CPUTime = 5 * time.Second
		}
		_, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &o)
		require.NoError(t, err)
		journals = append(journals, o.Journal)
	}
	_, err = adapt.Merge(tasks, journals, nil)
	require.ErrorIs(t, err, adapt.ErrJournalMismatch)
	assert.Contains(t, err.Error(), "limit CPUTime is 5s in "+journals[1]+" and 10s in "+journals[0])
	assert.Contains(t, err.Error(), "limit WallTime is 11s in "+journals[1]+" and 21s in "+journals[0])
}

// TestFingerprintHoldsModelAndPrompt: a model is identified by more than
// its name when it says what it is (a replay by its answers), and a
// template by the prompts it renders, not by its name.
func TestFingerprintHoldsModelAndPrompt(t *testing.T) {
	tasks := pyTasks(3)
	dir := t.TempDir()

	t.Run("replay", func(t *testing.T) {
		// A replay directory of other answers under the same name.
		answers := func(body string) *adapt.Replay {
			fsys := fstest.MapFS{}
			for i := range tasks {
				fsys[tasks[i].ID+"/0.py"] = &fstest.MapFile{Data: []byte(strings.Replace(tasks[i].Reference, "    return", "    "+body+"\n    return", 1))}
			}
			rp, err := adapt.LoadReplayDir("baseline", fsys, ".", "answers")
			require.NoError(t, err)
			return rp
		}
		journal := filepath.Join(dir, "replay.jsonl")
		first, err := adapt.Evaluate(context.Background(), tasks, answers("pass"), &adapt.Options{Runner: runner(t), Journal: journal})
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(first.Run.ModelIdentity, "replay directory answers sha256:"), first.Run.ModelIdentity)
		_, err = adapt.Evaluate(context.Background(), tasks, answers("pass"), &adapt.Options{Runner: runner(t), Journal: journal})
		require.NoError(t, err, "the same answers resume")
		_, err = adapt.Evaluate(context.Background(), tasks, answers("raise ValueError"), &adapt.Options{Runner: runner(t), Journal: journal})
		require.ErrorIs(t, err, adapt.ErrJournalMismatch, "a changed answer file under the same name")
		assert.Contains(t, err.Error(), "model identity is \"replay directory answers sha256:")
	})
	t.Run("template", func(t *testing.T) {
		// A template edited under the same name.
		tmpl := func(text string) *adapt.Template {
			return &adapt.Template{Name: "mine", Render: func(t *adapt.Task) ([]adapt.Message, error) {
				return []adapt.Message{{Role: "user", Content: text + "\n" + t.Code}}, nil
			}}
		}
		journal := filepath.Join(dir, "template.jsonl")
		_, err := adapt.Evaluate(context.Background(), tasks, &scripted{}, &adapt.Options{Runner: runner(t), Journal: journal, Template: tmpl("Adapt this.")})
		require.NoError(t, err)
		_, err = adapt.Evaluate(context.Background(), tasks, &scripted{}, &adapt.Options{Runner: runner(t), Journal: journal, Template: tmpl("Adapt this.")})
		require.NoError(t, err, "the same text resumes")
		_, err = adapt.Evaluate(context.Background(), tasks, &scripted{}, &adapt.Options{Runner: runner(t), Journal: journal, Template: tmpl("Adapt this, and break it.")})
		require.ErrorIs(t, err, adapt.ErrJournalMismatch, "an edited template under the same name")
		assert.Contains(t, err.Error(), "prompt digest (the template's text) is")
	})
}
