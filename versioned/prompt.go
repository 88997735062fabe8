package versioned

import (
	"fmt"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
)

// The GitChameleon prompts (paper, Figs. 17 and 18), as the paper prints
// them, with the line breaks of the two-column layout undone. A task in
// another language (the Go problems) gets the same text with the
// language's name and code fence in place of Python's; the user prompt
// then names the Go version ("2. Go version:", <go>) where it names the
// Python version.

// greedySystem is Fig. 17a; %[1]s is the language, %[2]s its fence tag
// and %[3]s its line-comment marker.
const greedySystem = `You are a skilled %[1]s programmer tasked with solving a coding problem. Your goal is to provide a clear, efficient, and correct solution that meets all the specified requirements.

Please provide your solution following these guidelines:
1. Use the required library in your solution.
2. Incorporate the provided starter code correctly.
3. Write your solution in %[1]s.
4. Format your solution within a markdown code block.
5. Ensure your code is clean, efficient, and well-commented.
6. Output only the code block and nothing else.

Example output format:

` + "```" + `%[2]s
%[3]s [Your code here, incorporating the starter code]

%[3]s [Additional code and comments as needed]
` + "```" + `

After writing your solution, please review it to ensure all requirements are met and the code is correct and efficient.

Here are the key elements for this task:`

// cotSystem is Fig. 17b.
const cotSystem = `You are a skilled %[1]s programmer tasked with solving a coding problem. Your goal is to provide a clear, efficient, and correct solution that meets all the specified requirements.

First, let's think step-by-step. Then, please provide your solution following these guidelines:
1. Use the required library in your solution.
2. Incorporate the provided starter code correctly.
3. Write your solution in %[1]s.
4. Format your solution within a markdown code block.
5. Ensure your code is clean, efficient, and well-commented.
6. Output nothing else after the code block.

Example output format:

[Step-by-step thinking]

` + "```" + `%[2]s
%[3]s [Your code here, incorporating the starter code]

%[3]s [Additional code and comments as needed]
` + "```" + `

After writing your solution, please review it to ensure all requirements are met and the code is correct and efficient.

Here are the key elements for this task:`

// userPrompt is Fig. 17c, with its duplicated "2.".
const userPrompt = `1. Required Library:
<library>
%[1]s
</library>

2. %[2]s version:
<%[3]s>
%[4]s
</%[3]s>

2. Coding Problem:
<coding_problem>
%[5]s
</coding_problem>

3. Starter Code:
<starter_code>
%[6]s
</starter_code>`

// repairSystem is Fig. 18a.
const repairSystem = `You are an expert programming assistant. Your task is to fix issues in a generated %[1]s solution for a given programming problem. You are provided with:
- A problem statement
- Starter code
- A previously generated incorrect solution
- A top-level execution trace or error message
- Dependencies information (versions, libraries).

Please generate a corrected %[1]s solution by following these strict guidelines:
1. Use the required libraries explicitly in your code.
2. Correctly incorporate the provided starter code - do not remove or alter its structure.
3. Write in standard %[1]s syntax.
4. Wrap your entire solution within a single Markdown code block.
5. Do not include any text outside the code block - no explanations, comments, docstrings, or usage examples.
6. Ensure the code is clean, efficient, and syntactically valid.
7. Avoid interactive, stateful, or environment-dependent constructs (e.g., Django projects, web servers).
8. Your output must be executable in a non-interactive environment (e.g., a test harness or script runner).

Example output format:

` + "```" + `%[2]s
%[3]s [Your corrected code here]
` + "```" + `

Before submitting, carefully review your code for correctness, completeness, and adherence to all constraints.`

// repairUser is Fig. 18b.
const repairUser = `<Problem>
%[1]s
</Problem>

<%[2]s Version>
%[3]s
</%[2]s Version>

<Library>
%[4]s
</Library>

<Version>
%[5]s
</Version>

<Extra Dependencies>
%[6]s
</Extra Dependencies>

<Starting Code>
%[7]s
</Starting Code>

<Generated Solution>
%[8]s
</Generated Solution>

<Trace>
%[9]s
</Trace>`

// promptOptions are the ablations of the prompts.
type promptOptions struct {
	// NoVersion renders the required library without its version (the
	// paper's --no_version ablation).
	NoVersion bool
}

// problemOf is what the prompts show of a task: its library label, its
// Detail (version, runtime) and fields (requirement, starter code, Env).
type problemOf struct {
	lang, fence, comment, runtimeName, runtimeTag, runtime string
	library, version, problem, starter, deps               string
}

func promptFields(t *adapt.Task) (problemOf, error) {
	d, err := DetailOf(t)
	if err != nil {
		return problemOf{}, err
	}
	p := problemOf{
		library: t.Labels["library"], version: d.Version, runtime: d.Runtime,
		problem: t.Requirement.Task, starter: t.Code,
	}
	if p.library == "" {
		return p, fmt.Errorf("versioned: task %q has no library label", t.ID)
	}
	var deps []string
	if t.Env != nil && len(t.Env.Packages) > 1 {
		for _, pk := range t.Env.Packages[1:] {
			deps = append(deps, requirement(pk))
		}
	}
	p.deps = strings.Join(deps, " ")
	switch t.Language {
	case adapt.Python:
		p.lang, p.fence, p.comment, p.runtimeName, p.runtimeTag = "Python", "python", "#", "Python", "python"
	case adapt.Go:
		p.lang, p.fence, p.comment, p.runtimeName, p.runtimeTag = "Go", "go", "//", "Go", "go"
	default:
		return p, fmt.Errorf("versioned: task %q: no GitChameleon prompt for %s", t.ID, t.Language)
	}
	return p, nil
}

// requiredLibrary renders the library as the paper's code does:
// "lib==ver" for Python, "module@version" for Go; the name alone under
// NoVersion.
func (p problemOf) requiredLibrary(o promptOptions) string {
	switch {
	case o.NoVersion:
		return p.library
	case p.lang == "Go":
		return p.library + "@" + p.version
	}
	return p.library + "==" + p.version
}

func firstPrompt(system string, o promptOptions) func(t *adapt.Task) ([]adapt.Message, error) {
	return func(t *adapt.Task) ([]adapt.Message, error) {
		p, err := promptFields(t)
		if err != nil {
			return nil, err
		}
		user := fmt.Sprintf(userPrompt, p.requiredLibrary(o), p.runtimeName, p.runtimeTag, p.runtime,
			p.problem, strings.TrimRight(p.starter, "\n"))
		return []adapt.Message{
			{Role: "system", Content: fmt.Sprintf(system, p.lang, p.fence, p.comment)},
			{Role: "user", Content: user},
		}, nil
	}
}

// greedyTemplate is the zero-shot prompt (Fig. 17a and c).
func greedyTemplate(o promptOptions) *adapt.Template {
	return &adapt.Template{Name: "gitchameleon-greedy" + o.suffix(), Doc: "GitChameleon zero-shot prompt (Fig. 17a, 17c)", Render: firstPrompt(greedySystem, o)}
}

// cotTemplate is the zero-shot chain-of-thought prompt (Fig. 17b and c).
func cotTemplate(o promptOptions) *adapt.Template {
	return &adapt.Template{Name: "gitchameleon-cot" + o.suffix(), Doc: "GitChameleon zero-shot chain-of-thought prompt (Fig. 17b, 17c)", Render: firstPrompt(cotSystem, o)}
}

func (o promptOptions) suffix() string {
	if o.NoVersion {
		return "-noversion"
	}
	return ""
}

// attempt is an earlier answer to a task and what went wrong with it,
// which the self-debug prompt shows.
type attempt struct {
	// Code is the solution the model gave (the code taken from its
	// completion, or the completion itself when it held no code).
	Code string
	// Trace is the top-level execution trace or error message of the
	// visible tests.
	Trace string
}

// repairMessages renders the self-debug prompt (Fig. 18) for a task and
// an earlier attempt. The library is shown by name, its version in
// <Version>, and the other packages of the task's environment as the
// extra dependencies.
func repairMessages(t *adapt.Task, a attempt) ([]adapt.Message, error) {
	p, err := promptFields(t)
	if err != nil {
		return nil, err
	}
	user := fmt.Sprintf(repairUser, p.problem, p.runtimeName, p.runtime, p.library, p.version, p.deps,
		strings.TrimRight(p.starter, "\n"), strings.TrimRight(a.Code, "\n"), strings.TrimRight(a.Trace, "\n"))
	return []adapt.Message{
		{Role: "system", Content: fmt.Sprintf(repairSystem, p.lang, p.fence, p.comment)},
		{Role: "user", Content: user},
	}, nil
}
