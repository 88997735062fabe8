package adapt

import (
	"fmt"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Template turns a task into the chat messages of a request. Templates are
// plain values: pick one of the built-ins, or write your own.
type Template struct {
	// Name identifies the template in reports and journals.
	Name string
	// Doc says what the prompt contains.
	Doc string
	// Render builds the messages for a task.
	Render func(t *Task) ([]Message, error)
}

// The AdaptEval prompt settings (spec: requirement × context), with the
// strings of the published artifact; the code fences use the task's
// language.
var (
	// AdaptationLevel shows the snippet, the ordered adaptation steps and
	// the related context (AdaptEval "AReq + Oracle").
	AdaptationLevel = &Template{Name: "areq-oracle", Doc: "snippet, adaptation-level steps, related context", Render: func(t *Task) ([]Message, error) { return adaptEvalPrompt(t, modeSteps, true) }}
	// AdaptationLevelNoContext is AdaptationLevel without the context
	// (AdaptEval "AReq + NoCtx").
	AdaptationLevelNoContext = &Template{Name: "areq-noctx", Doc: "snippet and adaptation-level steps", Render: func(t *Task) ([]Message, error) { return adaptEvalPrompt(t, modeSteps, false) }}
	// TaskLevel shows the snippet, the task-level sentence and the related
	// context (AdaptEval "TReq + Oracle").
	TaskLevel = &Template{Name: "treq-oracle", Doc: "snippet, task-level requirement, related context", Render: func(t *Task) ([]Message, error) { return adaptEvalPrompt(t, modeTask, true) }}
	// TaskLevelNoContext is TaskLevel without the context (AdaptEval
	// "TReq + NoCtx").
	TaskLevelNoContext = &Template{Name: "treq-noctx", Doc: "snippet and task-level requirement", Render: func(t *Task) ([]Message, error) { return adaptEvalPrompt(t, modeTask, false) }}
	// InstructionFree shows the snippet and the target file with the place
	// of the function marked, and no requirement (AdaptEval "NoReq"; the
	// mutation-injection setting).
	InstructionFree = &Template{Name: "noreq", Doc: "snippet and in-file context, no requirement", Render: func(t *Task) ([]Message, error) { return adaptEvalPrompt(t, modeNone, false) }}
)

// Templates lists the built-in templates.
var Templates = []*Template{AdaptationLevel, AdaptationLevelNoContext, TaskLevel, TaskLevelNoContext, InstructionFree}

// TemplateByName returns the built-in template with the given name.
func TemplateByName(name string) (*Template, error) {
	var names []string
	for _, t := range Templates {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return nil, fmt.Errorf("adapt: unknown template %q (want one of %s)", name, strings.Join(names, ", "))
}

type promptMode int

const (
	modeSteps promptMode = iota
	modeTask
	modeNone
)

const systemPrompt = "You are a helpful assistant."

func adaptEvalPrompt(t *Task, mode promptMode, withContext bool) ([]Message, error) {
	var b strings.Builder
	switch mode {
	case modeSteps:
		b.WriteString("I will provide you with a code snippet to reuse and a json file containing required adaptations. You should adapt the snippet into a target code base according to the description of adaptations one by one. Some related code context from the target code base is provided for reference.")
	case modeTask:
		b.WriteString("I will provide you with a code snippet to reuse. You should adapt the snippet into a target code base according to the task description. Some related code context from the target code base is provided for reference.")
	case modeNone:
		b.WriteString("I will provide you with a code snippet to reuse. You should adapt the snippet into a target code base according to its intra-file context. ")
	}
	fmt.Fprintf(&b, "\n\n### Reused Snippet:\n```%s\n%s\n```\n\n\n", t.Language, strings.TrimRight(t.Code, "\n"))
	switch mode {
	case modeSteps:
		b.WriteString("### Adaptations Required to Perform:\n```json\n")
		b.WriteString(pythonReprSteps(t.Requirement.Steps))
		b.WriteString("\n```\n")
	case modeTask:
		fmt.Fprintf(&b, "### Adaptation Task Description:\n%s\n", t.Requirement.Task)
	case modeNone:
		ctx, err := inFileContext(t)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "### In-file Context:\n```%s\n%s\n```\n", t.Language, ctx)
	}
	if mode != modeNone && withContext {
		b.WriteString("\n\n### Related Code Context For Reference:\n")
		if len(t.Context) == 0 {
			b.WriteString("None.\n")
		}
		for i, s := range t.Context {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "[Start of %s]\n```%s\n%s\n```\n[End of %s]", s.Name, t.Language, strings.TrimRight(string(syntax.Dedent([]byte(s.Code))), "\n"), s.Name)
		}
	}
	b.WriteString("\n\nPlease write out function after adaptation in the following section:\n### Adapted Function:")
	return []Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: b.String()}}, nil
}

// inFileContext is the target file with the target function replaced by a
// marker line.
func inFileContext(t *Task) (string, error) {
	if t.Target.Function == "" {
		return "# insert your adapted code here.", nil
	}
	lang, err := syntax.LangByName(t.Language)
	if err != nil {
		return "", err
	}
	f, err := syntax.FindFunction(lang, []byte(t.Target.Content), t.Target.Function)
	if err != nil {
		return "", fmt.Errorf("adapt: task %q: %w", t.ID, err)
	}
	marker := "# insert your adapted method here.\n"
	if t.Language != Python {
		marker = "// insert your adapted method here.\n"
	}
	c := t.Target.Content
	end := f.End
	if end < len(c) && c[end] == '\n' {
		end++
	}
	return strings.TrimRight(c[:f.Start]+marker+c[end:], "\n"), nil
}

// pythonReprSteps renders the steps the way AdaptEval's artifact does:
// Python's repr of a list of dicts with keys id, type and description.
func pythonReprSteps(steps []Step) string {
	var b strings.Builder
	b.WriteString("[")
	for i, s := range steps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("{'id': " + s.ID + ", 'type': " + pyRepr(s.Type) + ", 'description': " + pyRepr(s.Description) + "}")
	}
	b.WriteString("]")
	return b.String()
}

// pyRepr quotes s as Python's repr of a str does: single quotes unless the
// string holds a single quote and no double quote.
func pyRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteByte(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
