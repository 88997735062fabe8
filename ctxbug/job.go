package ctxbug

import (
	"fmt"
	"strings"
)

// Job is one request to a generator model: a masked (or marked) version
// of a base method, obfuscated, and the solution nodes it perturbs.
type Job struct {
	// ID names the job: "<base>/<rule>/<k>" for the k-th template of a
	// rule, "<instance>/isobug" for an IsoBug job.
	ID string
	// Base is the method the job derives from.
	Base *Base
	// Rule is the rule that made the template, or IsoRule.
	Rule string
	// task is the adaptation task of the rule ("interface",
	// "functionality", "identifier", "dependency").
	task string
	// Holes are the perturbed nodes of Base.Method, in source order.
	Holes []Hole
	// code is what the model is shown, before obfuscation: the template,
	// or the solution with <START>/<END> marks.
	code string
	// Obfuscated is code and the requirement, obfuscated, with the map
	// back.
	Obfuscated *Obfuscated
	// forbidden lists the libraries the model may not use (the dependency
	// rule's [LIB_DEPS]); empty for other rules.
	forbidden []string
	// parent is the ID of the CtxBug instance an IsoBug job marks; "" for
	// CtxBug jobs.
	parent string
}

// IsoRule is the Rule of IsoBug jobs.
const IsoRule = "isobug"

// Markers put around each CtxBug span for IsoBug implantation.
const (
	markStart = "<START>"
	markEnd   = "<END>"
)

// ruleTask returns the task of the named rule in rules.
func ruleTask(rules []*Rule, name string) string {
	for _, r := range rules {
		if r.Name == name {
			return r.Task
		}
	}
	return ""
}

// Jobs perturbs every base with rules and obfuscates each template: one
// job per template, base by base, in the order Perturb gives. Rules are
// validated first; a base that does not perturb is an error naming it.
func Jobs(bases []*Base, rules []*Rule) ([]*Job, error) {
	if err := validateRules(rules); err != nil {
		return nil, err
	}
	var out []*Job
	for _, b := range bases {
		ts, err := perturb(b.Method, &b.Context, rules)
		if err != nil {
			return nil, fmt.Errorf("ctxbug: %s: %w", b.ID(), err)
		}
		seen := map[string]int{}
		for _, t := range ts {
			o, err := obfuscateTemplate(b.Method, t, b.Requirement)
			if err != nil {
				return nil, fmt.Errorf("ctxbug: %s %s: %w", b.ID(), t.Rule, err)
			}
			j := &Job{
				ID:         fmt.Sprintf("%s/%s/%d", b.ID(), t.Rule, seen[t.Rule]),
				Base:       b,
				Rule:       t.Rule,
				task:       ruleTask(rules, t.Rule),
				Holes:      t.Holes,
				code:       t.Code,
				Obfuscated: o,
			}
			seen[t.Rule]++
			if j.task == "dependency" {
				j.forbidden = b.Libs
			}
			out = append(out, j)
		}
	}
	return out, nil
}

// infillPrompt is the user message asking a generator to fill a job's
// holes: the obfuscated requirement and the obfuscated template, and no
// target context. Dependency jobs get the paper's extra line, "However,
// you are not allowed to use the following libraries: [LIB_DEPS]". The
// paper's exact wording is not published; this one names the
// placeholders and asks for the whole method in one code block.
func infillPrompt(j *Job) string {
	if j.Rule == IsoRule {
		return isoPrompt(j)
	}
	var b strings.Builder
	b.WriteString("Complete the following Python method. Some of its code is masked by placeholders: ")
	b.WriteString("<PARAMS> stands for the parameter list, <RETURN> for a return statement, <VAR> for a variable, <INFILL> for any other code. ")
	b.WriteString("Replace every placeholder so that the method meets its requirement, and change nothing else.\n\n")
	fmt.Fprintf(&b, "### Requirement:\n%s\n\n", strings.TrimRight(j.Obfuscated.Requirement, "\n"))
	fmt.Fprintf(&b, "### Masked Method:\n```python\n%s\n```\n", strings.TrimRight(j.Obfuscated.Code, "\n"))
	if len(j.forbidden) > 0 {
		fmt.Fprintf(&b, "\nHowever, you are not allowed to use the following libraries: [%s]\n", strings.Join(j.forbidden, ", "))
	}
	b.WriteString("\nWrite out the complete method, with every placeholder replaced, in one Python code block.")
	return b.String()
}

func isoPrompt(j *Job) string {
	var b strings.Builder
	b.WriteString("The following Python method is correct. Some spans of it are marked with <START> and <END>. ")
	b.WriteString("Implant a bug inside each marked span, such that the method is visibly wrong when read on its own (an isolated bug), and change nothing outside the marked spans.\n\n")
	fmt.Fprintf(&b, "### Requirement:\n%s\n\n", strings.TrimRight(j.Obfuscated.Requirement, "\n"))
	fmt.Fprintf(&b, "### Marked Method:\n```python\n%s\n```\n", strings.TrimRight(j.Obfuscated.Code, "\n"))
	b.WriteString("\nWrite out the complete method with the bugs implanted and the marks removed, in one Python code block.")
	return b.String()
}
