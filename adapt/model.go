package adapt

import (
	"context"
	"fmt"
	"strings"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // "system", "user" or "assistant"
	Content string `json:"content"`
}

// Request is what Evaluate asks a Model.
type Request struct {
	// Task is the task the prompt was made from. Models that call a
	// service ignore it; the built-in offline models answer from it.
	Task     *Task           `json:"-"`
	Messages []Message       `json:"messages"`
	Sampling report.Sampling `json:"sampling"`
	// Samples holds the indices of the samples requested, one per
	// completion (len(Samples) == Sampling.N), so that a model that caches
	// answers can key them by sample.
	Samples []int `json:"samples,omitempty"`
	// Round is the repair round the request asks for (see Repair); 0 is
	// the first answer.
	Round int `json:"round,omitempty"`
}

// Model answers chat requests. Complete returns up to req.Sampling.N
// completions (fewer is allowed: the missing ones are model errors; more
// is a model error of the whole request); an error fails every sample of
// the request, never the whole evaluation, and is retried (see
// Options.Attempts). Model errors are unscored, never failures (see the
// scoring rules in the package documentation). A panic in Complete is
// recovered and recorded as a model error.
type Model interface {
	Name() string
	Complete(ctx context.Context, req Request) ([]report.Completion, error)
}

// Pricer is implemented by models that know what their tokens cost.
// Evaluate puts the cost of a run's usage in its report.
type Pricer interface {
	Cost(report.Usage) (float64, bool)
}

// offline is a Model that answers from the task itself.
type offline struct {
	name   string
	answer func(t *Task) string
}

func (m offline) Name() string { return m.name }

func (m offline) Complete(ctx context.Context, req Request) ([]report.Completion, error) {
	if req.Task == nil {
		return nil, fmt.Errorf("adapt: model %s needs Request.Task", m.name)
	}
	n := max(req.Sampling.N, 1)
	text := fenced(req.Task.Language, m.answer(req.Task))
	out := make([]report.Completion, n)
	for i := range out {
		out[i] = report.Completion{Text: text, FinishReason: "stop"}
	}
	return out, nil
}

// Reference answers every request with the task's reference: the gold
// check. A valid task is always solved by it.
var Reference Model = offline{name: "reference", answer: func(t *Task) string { return t.Reference }}

// Identity answers every request with the task's code unchanged: the
// do-nothing baseline.
var Identity Model = offline{name: "identity", answer: func(t *Task) string { return t.Code }}

func fenced(lang, code string) string {
	return "```" + lang + "\n" + strings.TrimRight(code, "\n") + "\n```\n"
}

// ModelFunc makes a Model of a function: a scripted model in a test, a
// client written in a few lines.
func ModelFunc(name string, complete func(ctx context.Context, req Request) ([]report.Completion, error)) Model {
	return modelFunc{name, complete}
}

type modelFunc struct {
	name     string
	complete func(ctx context.Context, req Request) ([]report.Completion, error)
}

func (m modelFunc) Name() string { return m.name }

func (m modelFunc) Complete(ctx context.Context, req Request) ([]report.Completion, error) {
	return m.complete(ctx, req)
}
