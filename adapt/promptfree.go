package adapt

// PromptFree is implemented by models that answer without reading the
// prompt: Replay (recorded answers), Reference and Identity (answers taken
// from the task). Evaluate and Draw render no prompt for such a model
// (its requests carry no Messages) and its report names no template
// (RunInfo.Template is ""): a run of replayed answers must not claim a
// prompt it never used. A model whose PromptFree returns false is treated
// as any other.
type PromptFree interface {
	PromptFree() bool
}

// PromptFree reports true: a Replay answers from its recordings.
func (r *Replay) PromptFree() bool { return true }

// PromptFree reports true: Reference and Identity answer from the task.
func (m offline) PromptFree() bool { return true }

func promptFree(m Model) bool {
	p, ok := m.(PromptFree)
	return ok && p.PromptFree()
}

// prompt is the render function of a task's first request: the
// template's, or none for a PromptFree model.
func (e *evaluation) prompt(t *Task) func() ([]Message, error) {
	if e.o.template == nil {
		return func() ([]Message, error) { return nil, nil }
	}
	return func() ([]Message, error) { return e.o.template.Render(t) }
}
