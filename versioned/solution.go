package versioned

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// SolutionModel returns a model, named after the file, that answers each
// task with the solution for its ID in the solution file at path
// (upstream's format, {"example_id", "answer"} per line, such as
// ground_truth_solutions.jsonl or a model's saved answers), so that it is
// scored by adapt.Evaluate like any model. An answer that holds a code fence is
// passed as it is, for adapt's extraction; any other answer is the module
// itself and is fenced. A task with no solution is a model error:
// unscored and listed, never counted as a failure (adapt's scoring rules).
func SolutionModel(path string) (adapt.Model, error) {
	sols, err := readSolutionsFile(path)
	if err != nil {
		return nil, err
	}
	return solutionModelOf(strings.TrimSuffix(filepath.Base(path), ".jsonl"), sols), nil
}

// solutionModelOf is SolutionModel on solutions read, named name.
func solutionModelOf(name string, solutions []solution) adapt.Model {
	m := solutionModel{name: name, answers: make(map[string]string, len(solutions))}
	for _, s := range solutions {
		m.answers[s.ExampleID] = s.Answer
	}
	return m
}

type solutionModel struct {
	name    string
	answers map[string]string
}

func (m solutionModel) Name() string { return m.name }

func (m solutionModel) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	if req.Task == nil {
		return nil, fmt.Errorf("versioned: model %s needs Request.Task", m.name)
	}
	c := report.Completion{FinishReason: "stop"}
	if a, ok := m.answers[req.Task.ID]; !ok {
		c.Err = fmt.Sprintf("versioned: no solution for %q", req.Task.ID)
	} else if strings.Contains(a, "```") {
		c.Text = a
	} else {
		c.Text = "```python\n" + strings.TrimRight(a, "\n") + "\n```\n"
	}
	out := make([]report.Completion, max(req.Sampling.N, 1))
	for i := range out {
		out[i] = c
	}
	return out, nil
}

// upstreamBlock is upstream's extraction: the first match of
// ```python(.*?)``` across lines.
var upstreamBlock = regexp.MustCompile("(?s)```python(.*?)```")

// firstPythonBlock is the extraction versioned.Evaluate uses (as
// adapt.Options.Answer) unless told otherwise. For a Python task it is
// upstream's (run_eval.py): the text of the first ```python block, up to
// the next ``` (so "```python3" leaves a "3" on the first line, as
// upstream does; a fence line that ends there is dropped). Where upstream falls back to the raw text, fences and
// all, which then fails (its plain-``` fallback is never reached), this
// takes the first fenced block of any kind (textkit.CodeBlocks), or the
// whole text when there is none. Other tasks get adapt.Extract, whose
// whole-file rule takes the longest block.
func firstPythonBlock(t *adapt.Task, c report.Completion) (adapt.Answer, error) {
	if t.Language != adapt.Python || t.Target.Function != "" {
		return adapt.Extract(t, c.Text)
	}
	if m := upstreamBlock.FindStringSubmatch(c.Text); m != nil {
		code := m[1]
		if first, rest, ok := strings.Cut(code, "\n"); ok && strings.TrimSpace(first) == "" {
			code = rest // the fence line's end
		}
		return adapt.Answer{Code: code}, nil
	}
	blocks := textkit.CodeBlocks(c.Text)
	if len(blocks) == 0 {
		return adapt.Answer{}, fmt.Errorf("%w: no code block", adapt.ErrNoCode)
	}
	return adapt.Answer{Code: blocks[0]}, nil
}
