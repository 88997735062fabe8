package mutate

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/syntax"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// ContextLevel is how much surrounding code a task's prompt shows.
type ContextLevel uint8

// The context levels of the paper.
const (
	contextInvalid ContextLevel = iota
	C1                          // the fragment F′ alone
	C2                          // the enclosing method, F′ in place
	C3                          // the whole file, F′ in place
)

func (c ContextLevel) String() string {
	if c >= C1 && c <= C3 {
		return fmt.Sprintf("C%d", c)
	}
	return fmt.Sprintf("ContextLevel(%d)", uint8(c))
}

// Task labels the pipeline sets (adapt.Task.Labels): grouping keys a
// report breaks scores down by. Per-task data is in the task's [Detail].
const (
	LabelLevel      = "level"         // "L1" … "L4"
	LabelContext    = "context"       // "C1", "C2", "C3"
	LabelOperators  = "operators"     // "op" or "op1+op2"
	LabelKind       = "fragment_kind" // Fragment.Kind
	LabelPolicy     = "policy"        // the compile policy
	LabelDetectedBy = "detected_by"   // "test", "timeout" or "compile"
	LabelEffective  = "effective"     // the effective level, "L1" … "L4" (Candidate.Effective)
)

// LabelKeys lists every label key the pipeline sets, the breakdowns of
// the paper: adapt.Options{Breakdown: mutate.LabelKeys}.
var LabelKeys = []string{LabelLevel, LabelContext, LabelOperators, LabelKind, LabelPolicy, LabelDetectedBy, LabelEffective}

// DetailSchema is the adapt.Provenance.Schema of the pipeline's tasks: the
// format of their [Detail].
// (v2 added Failing and Effective; DetailOf reads v1 too).
const DetailSchema = "mutate/v2"

// detailSchemaV1 is the schema before Failing and Effective.
const detailSchemaV1 = "mutate/v1"

// Detail is the pipeline's record of one task, kept as JSON in its
// adapt.Provenance.Detail (set by [SetDetail], read by [DetailOf]).
type Detail struct {
	// Snippet is F′'s byte range in Task.Code.
	Snippet Range `json:"snippet"`
	// Reference is F's byte range in Task.Reference.
	Reference Range `json:"reference"`
	// Mutations are the injected mutations, their ranges relative to
	// Task.Code (Mut) and Task.Reference (Orig).
	Mutations []Record `json:"mutations"`
	// Failing are the relevant tests that caught the mutant (failed on
	// F′, every time they ran); none when the compiler did
	// (AllowUnresolved).
	Failing []string `json:"failing,omitempty"`
	// Effective is the candidate's effective level (Candidate.Effective):
	// how many of its changes are detected alone, at least 1.
	Effective int `json:"effective,omitempty"`
}

// DetailOf decodes the record of a task the pipeline made. An error names
// the task and what was expected: a task without provenance schema
// DetailSchema (it wraps adapt.ErrDetailSchema), a record that does not
// decode, or a byte range outside Code or Reference.
func DetailOf(t *adapt.Task) (*Detail, error) {
	var d Detail
	schema := DetailSchema
	if t.Provenance != nil && t.Provenance.Schema == detailSchemaV1 {
		schema = detailSchemaV1 // its fields are v2's, less two
	}
	if err := t.DecodeDetail(schema, &d); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		name string
		r    Range
		n    int
	}{{"snippet", d.Snippet, len(t.Code)}, {"reference", d.Reference, len(t.Reference)}} {
		if c.r.Start < 0 || c.r.Start > c.r.End || c.r.End > c.n {
			return nil, fmt.Errorf("mutate: task %q: provenance detail: %s range [%d,%d) not within [0,%d]", t.ID, c.name, c.r.Start, c.r.End, c.n)
		}
	}
	return &d, nil
}

// SetDetail stores d as t's provenance detail, with schema DetailSchema
// (making t.Provenance if it is nil).
func SetDetail(t *adapt.Task, d *Detail) error {
	if err := t.SetDetail(DetailSchema, d); err != nil {
		return fmt.Errorf("mutate: %w", err)
	}
	return nil
}

// enclosingFunc returns the innermost named function around f and the
// name an answer replaces it by: its qualified name if that is unique in
// the file, else, for a Java overload, its signature if that is
// (VersionParser.parseVersionCore(String)); ok is false when neither is.
func enclosingFunc(f *Fragment) (fn syntax.Func, name string, ok bool) {
	t, err := syntax.Parse(syntax.Lang(f.Lang), f.Src)
	if err != nil {
		return syntax.Func{}, "", false
	}
	var best syntax.Func
	found := false
	names, sigs := map[string]int{}, map[string]int{}
	for _, fn := range t.Functions() {
		names[fn.QualifiedName()]++
		if fn.Params != nil {
			sigs[fn.Signature()]++
		}
		if fn.BodyStart >= 0 && fn.Start <= f.Start && f.End <= fn.End && (!found || fn.Start >= best.Start) {
			best, found = fn, true
		}
	}
	switch {
	case !found:
		return best, "", false
	case names[best.QualifiedName()] == 1:
		return best, best.QualifiedName(), true
	case best.Params != nil && sigs[best.Signature()] == 1:
		return best, best.Signature(), true
	}
	return best, "", false
}

// newTask makes the task of a valid candidate at one context level. The
// answer unit is the enclosing function (adapt splices functions): Code
// is the function with F′ in place, Reference the function with F, each
// from the start of its first line when only its indentation precedes it;
// its Detail gives F′'s range in Code and F's in Reference.
func newTask(p Project, c *Candidate, cl ContextLevel, source string) (adapt.Task, error) {
	fn, name, ok := enclosingFunc(c.Frag)
	if !ok {
		return adapt.Task{}, fmt.Errorf("mutate: %s:%d: no enclosing function", c.File, c.Frag.Line)
	}
	// The function's text starts at its line's start when only white
	// space precedes it there (a method in a class), so that its lines
	// share their indentation: a copy of it spliced back (Replace
	// re-indents) gives the file byte for byte.
	start := fn.Start
	if ls := bytes.LastIndexByte(c.Frag.Src[:start], '\n') + 1; len(bytes.TrimLeft(c.Frag.Src[ls:start], " \t")) == 0 {
		start = ls
	}
	delta := len(c.Src) - len(c.Frag.Src)
	code := string(c.Src[start : fn.End+delta])
	ref := string(c.Frag.Src[start:fn.End])
	snip := snippetRange(c)
	sStart, sEnd := snip.Start-start, snip.End-start
	rStart, rEnd := c.Frag.Start-start, c.Frag.End-start

	recs := make([]Record, len(c.Records))
	for i, r := range c.Records {
		r.Changes = append([]Change(nil), r.Changes...)
		for j := range r.Changes {
			ch := &r.Changes[j]
			ch.Orig = Range{ch.Orig.Start - start, ch.Orig.End - start}
			ch.Mut = Range{ch.Mut.Start - start, ch.Mut.End - start}
		}
		recs[i] = r
	}
	key := c.Key()
	t := adapt.Task{
		ID:        fmt.Sprintf("%s%s:%d-%d:%s:%s:%d:%s", prefix(source), c.File, c.Frag.Line, c.Frag.EndLine, c.Level, key, c.Seed, cl),
		Code:      code,
		Target:    adapt.Target{Path: c.File, Function: name, Content: string(c.Frag.Src)},
		Reference: ref,
		Labels: map[string]string{
			LabelLevel: c.Level.String(), LabelContext: cl.String(), LabelOperators: key,
			LabelKind: c.Frag.Kind, LabelPolicy: c.Policy.String(), LabelDetectedBy: c.DetectedBy(),
			LabelEffective: c.Effective().String(),
		},
		Provenance: &adapt.Provenance{
			Generator: "mutate", Parent: fmt.Sprintf("%s%s:%d-%d", prefix(source), c.File, c.Frag.Line, c.Frag.EndLine),
			Operators: c.Ops, Seed: c.Seed, Source: source,
		},
	}
	d := &Detail{Snippet: Range{sStart, sEnd}, Reference: Range{rStart, rEnd}, Mutations: recs,
		Failing: slices.Clone(c.Failing), Effective: int(c.Effective())}
	if err := SetDetail(&t, d); err != nil {
		return adapt.Task{}, err
	}
	for _, name := range c.Tests {
		t.Tests = append(t.Tests, adapt.Test{Name: name})
	}
	if err := p.Task(c.File, &t); err != nil {
		return adapt.Task{}, err
	}
	begin, end := markers(t.Language)
	switch cl {
	case C2:
		t.Context = []adapt.Snippet{{Name: "method", Code: markSnippet(code, sStart, sEnd, begin, end)}}
	case C3:
		t.Context = []adapt.Snippet{{Name: "file", Code: markSnippet(string(c.Src), start+sStart, start+sEnd, begin, end)}}
	}
	if err := t.Validate(); err != nil {
		return adapt.Task{}, err
	}
	return t, nil
}

// nameOps are the operators whose restoration is a name: renamevar's
// original name, dropreceiver's receiver.
var nameOps = map[string]bool{"renamevar": true, "dropreceiver": true}

// wordRE matches an identifier-like word.
var wordRE = regexp.MustCompile(`[\pL_][\pL\pN_]*`)

// hidesRestoredName reports whether undoing the candidate needs a name
// that F′ itself does not show: a renamevar's original name or a
// dropreceiver's receiver, other than a keyword (Java's this), that no
// longer occurs in F′. A C1 prompt shows F′ alone, so such a mutant could
// be undone there only by a guess; the pipeline makes it at C2 and C3
// only. (A declaration-only context at C1 for these tasks alone would
// tell the model which operator was applied, for every task would make
// C1 another level than the paper's, and would still hide a renamed
// local declared above the fragment.)
func hidesRestoredName(c *Candidate) bool {
	lg, err := languageOf(c.Frag.Lang)
	if err != nil {
		return false
	}
	r := snippetRange(c)
	shown := map[string]bool{}
	for _, w := range wordRE.FindAll(c.Src[r.Start:r.End], -1) {
		shown[string(w)] = true
	}
	for _, rec := range c.Records {
		if !nameOps[rec.Operator] {
			continue
		}
		for _, ch := range rec.Changes {
			for _, w := range wordRE.FindAllString(ch.Old, -1) {
				if !shown[w] && !lg.reserved(w) {
					return true
				}
			}
		}
	}
	return false
}

// snippetRange returns F′'s range in c.Src: the fragment's range mapped
// through the candidate's changes. A change that reaches across the
// fragment's start or end (RemoveGuard deletes a first or last statement
// with its indentation and line break) moves that end to the change's
// text in F′, past the white space there, so that F′ starts at its first
// statement and ends at its last.
func snippetRange(c *Candidate) Range {
	f := c.Frag
	start, end := -1, -1
	dStart, dEnd := 0, 0
	for _, r := range c.Records {
		for _, ch := range r.Changes {
			d := len(ch.New) - (ch.Orig.End - ch.Orig.Start)
			switch {
			case ch.Orig.Start < f.Start && ch.Orig.End > f.Start:
				start = ch.Mut.Start
			case ch.Orig.Start < f.Start:
				dStart += d
			}
			switch {
			case ch.Orig.Start < f.End && ch.Orig.End > f.End:
				end = ch.Mut.End
			case ch.Orig.Start <= f.End:
				dEnd += d
			}
		}
	}
	if end < 0 {
		end = f.End + dEnd
	} else {
		for end > 0 && isBlank(c.Src[end-1]) {
			end--
		}
	}
	if start < 0 {
		start = f.Start + dStart
	} else {
		for start < end && isBlank(c.Src[start]) {
			start++
		}
	}
	return Range{start, max(start, end)}
}

// markSnippet puts the marker comments begin and end on lines of their own
// around text[s:e], each indented as the snippet's first line, which keeps
// its indentation: deleting the two marker lines gives text back when the
// snippet starts and ends a line.
func markSnippet(text string, s, e int, begin, end string) string {
	before, snip, after := text[:s], text[s:e], text[e:]
	ind := indentAt([]byte(text), s)
	if ls := strings.LastIndexByte(before, '\n') + 1; strings.TrimLeft(before[ls:], " \t") == "" {
		before = before[:ls]
	} else {
		before += "\n"
	}
	if !strings.HasPrefix(after, "\n") {
		after = "\n" + ind + after
	}
	return before + ind + begin + "\n" + ind + snip + "\n" + ind + end + after
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func prefix(source string) string {
	if source == "" {
		return ""
	}
	return source + "/"
}

// markers returns the comments that delimit F′ in a C2 or C3 context.
func markers(lang string) (string, string) {
	return "// <snippet>", "// </snippet>"
}

// Snippet returns F′, the fragment a task asks to adapt, from its Code
// (the range its Detail gives).
func Snippet(t *adapt.Task) (string, error) {
	d, err := DetailOf(t)
	if err != nil {
		return "", err
	}
	return t.Code[d.Snippet.Start:d.Snippet.End], nil
}

// PromptVersion names the prompt template's wording; it changes whenever
// the wording does.
const PromptVersion = "mutate-noinstr-v1"

// Prompt is the instruction-free template of the mutation-injection
// tasks: one sentence saying the snippet was copied here, the context of
// the task's level (empty at C1, the method or the file with the snippet
// between marker comments at C2 and C3), the snippet, and the answer
// format. No edit list, no identifiers, no operator names.
var Prompt = &adapt.Template{
	Name: PromptVersion,
	Doc:  "instruction-free: the copied snippet and its C1/C2/C3 context",
	Render: func(t *adapt.Task) ([]adapt.Message, error) {
		snip, err := Snippet(t)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		b.WriteString("The snippet below was copied from another code base and pasted into this one. Adapt it so that it works correctly where it now is.\n\n<context>\n")
		for _, s := range t.Context {
			b.WriteString("```" + t.Language + "\n" + strings.TrimRight(s.Code, "\n") + "\n```\n")
		}
		b.WriteString("</context>\n\n<snippet>\n```" + t.Language + "\n" + string(syntax.Dedent([]byte(leadIndent(t.Code, snip)))) + "\n```\n</snippet>\n\n")
		b.WriteString("Answer with the adapted snippet only, in a single fenced code block.")
		return []adapt.Message{{Role: "user", Content: b.String()}}, nil
	},
}

// leadIndent puts back the indentation of the snippet's first line, so
// that dedenting keeps relative indentation.
func leadIndent(code, snip string) string {
	i := strings.Index(code, snip)
	if i < 0 {
		return snip
	}
	return indentAt([]byte(code), i) + snip
}

// Answer takes the answer to test out of a completion to a mutate task;
// pass it as adapt.Options.Answer. A model answers Prompt with the adapted
// snippet: when the completion's code does not define the task's target
// function, its first code block is put in place of F′ in the task's
// Code (spliceAnswer) and that function is the answer. A completion that
// defines the function (adapt.Reference's, adapt.Identity's) is taken as
// adapt.Extract takes it.
func Answer(t *adapt.Task, c report.Completion) (adapt.Answer, error) {
	if code, ok := spliceAnswer(t, c.Text); ok {
		// textkit.CodeBlocks gives a completion with no fence line back whole.
		if blocks := textkit.CodeBlocks(c.Text); len(blocks) == 1 && blocks[0] == c.Text && worseSyntax(t, code) {
			// Prose with no code block, spliced in, would be a compile
			// error here and no-code everywhere else (adapt.Extract).
			return adapt.Answer{}, fmt.Errorf("%w: no code block, and the text does not read as %s", adapt.ErrNoCode, t.Language)
		}
		return adapt.Answer{Code: code}, nil
	}
	return adapt.Extract(t, c.Text)
}

// worseSyntax reports whether code, the task's code with an answer spliced
// in, has more syntax errors than the task's code itself.
func worseSyntax(t *adapt.Task, code string) bool {
	lang, err := syntax.LangByName(t.Language)
	if err != nil {
		return false
	}
	before, err := syntax.Parse(lang, []byte(t.Code))
	if err != nil {
		return false
	}
	after, err := syntax.Parse(lang, []byte(code))
	if err != nil {
		return true
	}
	return len(after.Errors()) > len(before.Errors())
}

// spliceAnswer returns the task's function with the first code block of
// completion in place of F′, and false when the completion has no code
// block or already defines the target function.
func spliceAnswer(t *adapt.Task, completion string) (string, bool) {
	blocks := textkit.CodeBlocks(completion)
	if len(blocks) == 0 {
		return "", false
	}
	lang, err := syntax.LangByName(t.Language)
	if err != nil {
		return "", false
	}
	// A Java answer may be the bare method, which names it without its
	// class: look for both names.
	name := t.Target.Function
	base, params, sig := strings.Cut(name, "(") // a Java overload's signature
	short := base[strings.LastIndexByte(base, '.')+1:]
	if sig {
		short += "(" + params
	}
	for _, b := range blocks {
		for _, n := range []string{name, short} {
			if _, err := syntax.Extract(lang, []byte(b), n); err == nil {
				return "", false
			}
		}
	}
	d, err := DetailOf(t)
	if err != nil {
		return "", false
	}
	s, e := d.Snippet.Start, d.Snippet.End
	ind := indentAt([]byte(t.Code), s)
	body := strings.TrimRight(string(syntax.Dedent([]byte(blocks[0]))), "\n")
	body = strings.TrimLeft(string(syntax.Indent([]byte(body), ind)), " \t")
	return t.Code[:s] + body + t.Code[e:], true
}
