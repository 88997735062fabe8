package adapteval

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/adaptbench/adaptbench/adapt"
)

// requirementLevel is the requirement a prompt gives: the paper's
// requirement levels (AReq, TReq) or none (NoReq).
type requirementLevel uint8

const (
	// The zero value is no level: a Setting's messages fail without one.
	_ requirementLevel = iota
	// aReq gives the adaptation-level requirements: the ordered list of
	// adaptations (the artifact's task_mode 0).
	aReq
	// tReq gives the task-level requirement: one sentence (task_mode 1).
	tReq
	// noReq gives no requirement but the target file around the function,
	// the "in-file context" (task_mode 2).
	noReq
)

// Setting is one of the paper's prompt settings: a requirement level, with
// or without the Oracle context. Settings lists the five of the paper and
// SettingByName finds one; its Template is what adapt.Evaluate takes.
type Setting struct {
	// Name is the setting's name: "areq-oracle", "areq-noctx",
	// "treq-oracle", "treq-noctx" or "noreq".
	Name        string
	requirement requirementLevel
	// oracle adds the related code of the task's dependencies
	// (Task.Context) to an AReq or TReq prompt. NoReq never has it.
	oracle bool
	// CategoryOnly shows only the category ("Logic") in the type field of
	// the adaptation list, as the artifact's stored example prompts do,
	// instead of the whole label ("Logic.Ins_Call") its code writes. The
	// paper does not say which the published numbers used.
	CategoryOnly bool
}

// The five settings of the paper (Tables IV and VII).
var (
	aReqOracle = Setting{Name: "areq-oracle", requirement: aReq, oracle: true}
	aReqNoCtx  = Setting{Name: "areq-noctx", requirement: aReq}
	tReqOracle = Setting{Name: "treq-oracle", requirement: tReq, oracle: true}
	tReqNoCtx  = Setting{Name: "treq-noctx", requirement: tReq}
	noReqCtx   = Setting{Name: "noreq", requirement: noReq}
)

// Settings lists the paper's five settings: areq-oracle, areq-noctx,
// treq-oracle, treq-noctx and noreq.
var Settings = []Setting{aReqOracle, aReqNoCtx, tReqOracle, tReqNoCtx, noReqCtx}

// SettingByName returns the setting of Settings with the given name.
func SettingByName(name string) (Setting, error) {
	var names []string
	for _, s := range Settings {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Setting{}, fmt.Errorf("adapteval: unknown setting %q (want one of %s)", name, strings.Join(names, ", "))
}

// systemPrompt is the system message of every request.
const systemPrompt = "You are a helpful assistant."

// inFileMarker replaces the target function in a NoReq prompt.
const inFileMarker = "# insert your adapted method here.\n"

// Template returns the setting as an adapt.Template, named
// "adapteval-<setting>" ("-category" added with CategoryOnly).
func (s Setting) Template() *adapt.Template {
	name := "adapteval-" + s.Name
	if s.CategoryOnly {
		name += "-category"
	}
	doc := map[requirementLevel]string{aReq: "snippet and adaptation-level requirements", tReq: "snippet and task-level requirement", noReq: "snippet and in-file context, no requirement"}[s.requirement]
	if s.oracle && s.requirement != noReq {
		doc += ", Oracle context"
	}
	return &adapt.Template{Name: name, Doc: "AdaptEval " + doc + " (the artifact's strings)", Render: s.messages}
}

// Messages renders the prompt of a task: a system message and one user
// message whose text is, byte for byte, what the artifact's PromptLoader
// (evaluation/src/prompt_loader.py) builds:
//
//	<intro>\n\n### Reused Snippet:\n```python\n<snippet>\n```\n
//	\n\n<requirement or in-file context>
//	[\n\n### Related Code Context For Reference:\n<blocks joined by \n, or "None.\n">]
//	\n\nPlease write out function after adaptation in the following section:\n### Adapted Function:
//
// The snippet and the task description are used verbatim (with their
// trailing newlines). The adaptation list is Python's repr of a list of
// {'id', 'type', 'description'} dicts, ids as integers (the "#2" of a
// repeated id dropped). An Oracle block is "[Start of NAME]\n```python\n" +
// code + "\n```\n[End of NAME]". NoReq shows the target file with the
// target function's def line and body replaced by inFileMarker, found as
// the artifact finds it (a regular expression, then indentation), with the
// artifact's truncation of the text above and below to inFileTokens
// cl100k_base tokens each (see inFileContext).
func (s Setting) messages(t *adapt.Task) ([]adapt.Message, error) {
	var b strings.Builder
	switch s.requirement {
	case aReq:
		b.WriteString("I will provide you with a code snippet to reuse and a json file containing required adaptations. You should adapt the snippet into a target code base according to the description of adaptations one by one. Some related code context from the target code base is provided for reference.")
	case tReq:
		b.WriteString("I will provide you with a code snippet to reuse. You should adapt the snippet into a target code base according to the task description. Some related code context from the target code base is provided for reference.")
	case noReq:
		b.WriteString("I will provide you with a code snippet to reuse. You should adapt the snippet into a target code base according to its intra-file context. ")
	default:
		return nil, fmt.Errorf("adapteval: setting %q has no requirement level", s.Name)
	}
	b.WriteString("\n\n### Reused Snippet:\n```python\n" + t.Code + "\n```\n")
	b.WriteString("\n\n")
	switch s.requirement {
	case aReq:
		b.WriteString("### Adaptations Required to Perform:\n```json\n" + reprSteps(t.Requirement.Steps, s.CategoryOnly) + "\n```\n")
	case tReq:
		b.WriteString("### Adaptation Task Description:\n" + t.Requirement.Task + "\n")
	case noReq:
		ctx, err := inFileContext(t.Target.Content, t.Target.Function)
		if err != nil {
			return nil, fmt.Errorf("adapteval: task %q: %w", t.ID, err)
		}
		b.WriteString("### In-file Context:\n```python\n" + ctx + "\n```\n")
	}
	if s.requirement != noReq && s.oracle {
		b.WriteString("\n\n### Related Code Context For Reference:\n")
		if len(t.Context) == 0 {
			b.WriteString("None.\n")
		}
		for i, sn := range t.Context {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString("[Start of " + sn.Name + "]\n```python\n" + removeLeadingSpaces(sn.Code) + "\n```\n[End of " + sn.Name + "]")
		}
	}
	b.WriteString("\n\nPlease write out function after adaptation in the following section:\n### Adapted Function:")
	return []adapt.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: b.String()}}, nil
}

// inFileContext is the artifact's
// DataUtil.replace_method_in_code_for_infile_prompt: file with the def line
// of function (found by the regular expression
// \n?\s*def\s+NAME\s*\([^)]*?\)[^:]*?:[^\n]*?\n, which also eats the blank
// lines before it) replaced by inFileMarker, and the body lines after it
// (lines indented deeper than the first line that contains "def NAME(",
// and blank lines) dropped. The text above is cut to its last inFileTokens
// cl100k_base tokens, the text from the marker down to its first
// inFileTokens tokens, and the two are joined by "\n\n". The tokenizer is
// loaded the first time a side is longer than inFileTokens bytes.
func inFileContext(file, function string) (string, error) {
	name := function
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	re, err := regexp.Compile(strings.ReplaceAll(`(?s)\n?\s*def\s+`+regexp.QuoteMeta(name)+`\s*\([^)]*?\)[^:]*?:[^\n]*?\n`, `\s`, pySpaceClass))
	if err != nil {
		return "", err
	}
	loc := re.FindStringIndex(file)
	if loc == nil {
		return "", fmt.Errorf("no definition of %s in the target file", name)
	}
	above, below := file[:loc[0]], file[loc[1]:]
	lead := 0
	prefix := "def " + name + "("
	for _, l := range strings.Split(file, "\n") {
		if strings.Contains(l, prefix) {
			lead = leadingSpaces(l)
			break
		}
	}
	rest := strings.Split(inFileMarker, "\n")
	inBody := true
	for _, l := range strings.Split(below, "\n") {
		if inBody && (leadingSpaces(l) > lead || allSpace(l)) {
			continue
		}
		inBody = false
		rest = append(rest, l)
	}
	head, err := truncateTokens(above, inFileTokens, false)
	if err != nil {
		return "", err
	}
	tail, err := truncateTokens(strings.Join(rest, "\n"), inFileTokens, true)
	if err != nil {
		return "", err
	}
	return head + "\n\n" + tail, nil
}

// pySpaceClass is what \s matches in a Python str pattern: the characters
// for which str.isspace holds (RE2's \s has only ASCII white space, and not
// \v).
const pySpaceClass = `[\t\n\v\f\r \x1c-\x1f\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

// reprSteps renders steps as Python's repr of the artifact's list of dicts.
func reprSteps(steps []adapt.Step, categoryOnly bool) string {
	var b strings.Builder
	b.WriteString("[")
	for i, s := range steps {
		if i > 0 {
			b.WriteString(", ")
		}
		typ := s.Type
		if categoryOnly {
			typ = s.Category()
		}
		b.WriteString("{'id': " + reprID(s.ID) + ", 'type': " + pyRepr(typ) + ", 'description': " + pyRepr(s.Description) + "}")
	}
	b.WriteString("]")
	return b.String()
}

// reprID writes a step ID as the artifact's integer id: "6#2" (the second
// adaptation with id 6) is 6. An ID that is not a number is a string.
func reprID(id string) string {
	n, _, _ := strings.Cut(id, "#")
	if v, err := strconv.Atoi(n); err == nil {
		return strconv.Itoa(v)
	}
	return pyRepr(id)
}

// pyRepr quotes s as Python 3's repr of a str: single quotes unless s holds
// a single quote and no double quote; \\, \n, \r, \t and the quote escaped;
// other non-printable characters as \xNN, \uNNNN or \UNNNNNNNN.
func pyRepr(s string) string {
	q := '\''
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteRune(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == q:
			b.WriteRune('\\')
			b.WriteRune(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case pyPrintable(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteRune(q)
	return b.String()
}

// pyPrintable approximates Python's str.isprintable for one character: not
// in the categories Cc, Cf, Cs, Co, Cn, Zl, Zp, and not a space separator
// other than " ".
func pyPrintable(r rune) bool {
	if r == ' ' {
		return true
	}
	return unicode.IsPrint(r)
}
