package ctxbug

import (
	"fmt"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
)

// adaptPrompt is the adaptation prompt of the evaluation (§4.3), in the
// wording of the group's ClassEval setting (Zhang et al., ICSE'25): the
// requirement, the reused code to adapt, and the class context with the
// method and its callers removed, all obfuscated at class level (see
// obfuscateAdaptation). Use it through [Evaluate], which maps the
// answers back before the tests run.
var adaptPrompt = &adapt.Template{
	Name:   "ctxbug-adapt",
	Doc:    "requirement, reused method, class context without the method and its callers; obfuscated",
	Render: renderAdapt,
}

// view obfuscates a ctxbug task's prompt parts.
func view(t *adapt.Task) (*adaptView, error) {
	class, method := splitTarget(t.Target.Function)
	ctx := ""
	if len(t.Context) > 0 {
		ctx = t.Context[0].Code
	}
	v, err := obfuscateAdaptation(t.Code, t.Requirement.Task, ctx, class, method)
	if err != nil {
		return nil, fmt.Errorf("ctxbug: task %q: %w", t.ID, err)
	}
	return v, nil
}

func splitTarget(fn string) (class, method string) {
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		return fn[:i], fn[i+1:]
	}
	return "", fn
}

func renderAdapt(t *adapt.Task) ([]adapt.Message, error) {
	v, err := view(t)
	if err != nil {
		return nil, err
	}
	class, method := splitTarget(t.Target.Function)
	if nn, ok := reverse(v.Names)[class]; ok {
		class = nn
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Please adapt the provided method `%s` to the class context of `%s`. The adapted method should perform the function in the following description: ```%s```\n\n", method, class, strings.TrimSpace(v.Requirement))
	fmt.Fprintf(&b, "### Reused Method:\n```python\n%s\n```\n\n", strings.TrimRight(v.Code, "\n"))
	fmt.Fprintf(&b, "### Class Context:\n```python\n%s\n```\n\n", strings.TrimRight(v.Context, "\n"))
	fmt.Fprintf(&b, "Please write out the adapted method `%s` in one Python code block.", method)
	return []adapt.Message{{Role: "system", Content: "You are a helpful assistant."}, {Role: "user", Content: b.String()}}, nil
}

func reverse(m map[string]string) map[string]string {
	r := make(map[string]string, len(m))
	for k, v := range m {
		r[v] = k
	}
	return r
}
