package ctxbugtest

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/ctxbug"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// NewImplanter returns a deterministic stand-in for a generator LLM that
// answers the given jobs (ctxbug.Infill's infill requests), for running
// the whole CtxBugGen flow offline and in tests. The same seed, jobs and
// sample give the same answers.
func NewImplanter(seed uint64, jobs ...*ctxbug.Job) *Implanter {
	m := &Implanter{jobs: map[string]*ctxbug.Job{}, seed: seed}
	m.Add(jobs...)
	return m
}

// Add makes the implanter answer jobs too (IsoBug jobs made after the
// first generation, say). It is not safe to call during Complete.
func (m *Implanter) Add(jobs ...*ctxbug.Job) {
	for _, j := range jobs {
		m.jobs[j.ID] = j
	}
}

// Copier returns a tested model that overlooks every bug: it answers with
// the reused method of the prompt as it is (a floor for detection).
func Copier() adapt.Model { return copier{} }

// Implanter is a deterministic stand-in for a generator LLM, for running
// the whole flow offline. It fills each hole of a job with a plausible
// but wrong version of what the solution had there: an operator swapped,
// an integer off by one, a boolean flipped, another variable or
// attribute of the method, a parameter dropped, a return value replaced
// by None. For an IsoBug job it mutates each marked span the same way.
// Its choices depend only on the seed, the job and the sample.
type Implanter struct {
	jobs map[string]*ctxbug.Job
	seed uint64
}

func (m *Implanter) Name() string { return "implanter" }

func (m *Implanter) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	if req.Task == nil || m.jobs[req.Task.ID] == nil {
		return nil, fmt.Errorf("implanter: unknown job")
	}
	j := m.jobs[req.Task.ID]
	h := fnv.New64a()
	h.Write([]byte(j.ID))
	var out []report.Completion
	for _, s := range req.Samples {
		rng := rand.New(rand.NewPCG(m.seed, h.Sum64()+uint64(s)))
		out = append(out, report.Completion{Text: "```python\n" + fill(j, rng) + "```\n", FinishReason: "stop"})
	}
	return out, nil
}

var (
	placeholderRE = regexp.MustCompile(`<PARAMS>|<RETURN>|<INFILL>|<VAR>`)
	markedRE      = regexp.MustCompile(`(?s)<START>(.*?)<END>`)
)

// fill answers job j: its obfuscated code with every hole filled.
func fill(j *ctxbug.Job, rng *rand.Rand) string {
	var peers []string
	for _, h := range j.Holes {
		peers = append(peers, string(j.Base.Method[h.Start:h.End]))
	}
	k := 0
	if j.Rule == ctxbug.IsoRule {
		// The marked spans are the holes, in order.
		return markedRE.ReplaceAllStringFunc(j.Obfuscated.Code, func(s string) string {
			h := j.Holes[k]
			k++
			return mutate(h.Node, markedRE.FindStringSubmatch(s)[1], peers, rng)
		})
	}
	return placeholderRE.ReplaceAllStringFunc(j.Obfuscated.Code, func(string) string {
		h := j.Holes[k]
		k++
		return mutate(h.Node, string(j.Base.Method[h.Start:h.End]), peers, rng)
	})
}

// mutate returns a plausible wrong version of text, the source of a node
// of type node (empty when unknown); peers are the texts of the other
// holes of the job.
func mutate(node, text string, peers []string, rng *rand.Rand) string {
	switch node {
	case "identifier", "attribute":
		var other []string
		for _, p := range peers {
			if p != text && !contains(other, p) {
				other = append(other, p)
			}
		}
		if len(other) > 0 {
			return other[rng.IntN(len(other))]
		}
		return text + "2" // a name nothing defines
	case "parameters":
		ps := strings.Split(text, ",")
		if len(ps) > 1 || (len(ps) == 1 && strings.TrimSpace(ps[0]) != "self" && strings.TrimSpace(ps[0]) != "") {
			return strings.Join(ps[:len(ps)-1], ",")
		}
		return text + ", strict=False"
	case "return_statement":
		expr := strings.TrimSpace(strings.TrimPrefix(text, "return"))
		if m := mutateExpr(expr, rng); m != expr {
			return "return " + m
		}
		if expr != "None" {
			return "return None"
		}
		return "return"
	}
	if s, ok := swaps[strings.TrimSpace(text)]; ok {
		return s
	}
	return mutateExpr(text, rng)
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// swaps are the operator replacements.
var swaps = map[string]string{
	"+": "-", "-": "+", "*": "/", "/": "*", "//": "/", "%": "//", "**": "*",
	"|": "+", "&": "|", "^": "|", "<<": ">>", ">>": "<<",
	"==": "!=", "!=": "==", "<": "<=", "<=": "<", ">": ">=", ">=": ">",
	"and": "or", "or": "and", "in": "not in", "not in": "in", "is": "is not", "is not": "is",
	"+=": "-=", "-=": "+=", "*=": "/=", "/=": "*=", "not": "",
}

// mutateExpr changes one token of an expression (chosen at random among
// its operators and literals), or negates it when it has none that can
// change and reads as a condition.
func mutateExpr(text string, rng *rand.Rand) string {
	src := []byte(text)
	root, err := syntax.ParseNodes(syntax.Python, src)
	if err != nil {
		return text
	}
	var edits []syntax.TextEdit
	root.Walk(func(n *syntax.Node) bool {
		t := n.Text(src)
		switch {
		case n.Type == "integer":
			if v, err := strconv.Atoi(t); err == nil {
				edits = append(edits, syntax.TextEdit{Start: n.Start, End: n.End, Text: strconv.Itoa(v + 1)})
			}
		case n.Type == "float":
			edits = append(edits, syntax.TextEdit{Start: n.Start, End: n.End, Text: t + "0"})
		case n.Type == "true":
			edits = append(edits, syntax.TextEdit{Start: n.Start, End: n.End, Text: "False"})
		case n.Type == "false":
			edits = append(edits, syntax.TextEdit{Start: n.Start, End: n.End, Text: "True"})
		case n.Type == "string_content" && len(t) > 0:
			edits = append(edits, syntax.TextEdit{Start: n.Start, End: n.End, Text: swapCase(t)})
		case !n.Named && (n.Field == "operator" || n.Field == "operators"):
			if s, ok := swaps[t]; ok && s != "" {
				edits = append(edits, syntax.TextEdit{Start: n.Start, End: n.End, Text: s})
			}
		}
		return true
	})
	if len(edits) == 0 {
		return text
	}
	e := edits[rng.IntN(len(edits))]
	out, _, err := syntax.ApplyEdits(src, []syntax.TextEdit{e})
	if err != nil {
		return text
	}
	return string(out)
}

func swapCase(s string) string {
	r := []rune(s)
	for i, c := range r {
		switch {
		case c >= 'a' && c <= 'z':
			r[i] = c - 'a' + 'A'
			return string(r)
		case c >= 'A' && c <= 'Z':
			r[i] = c - 'A' + 'a'
			return string(r)
		}
	}
	return s + "_"
}

// copier is a tested model that overlooks everything: it answers with the
// reused method of the prompt as it is.
type copier struct{}

func (copier) Name() string { return "copy" }

var reusedRE = regexp.MustCompile("(?s)### Reused Method:\n```python\n(.*?)```")

func (copier) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	m := reusedRE.FindStringSubmatch(req.Messages[len(req.Messages)-1].Content)
	if m == nil {
		return nil, fmt.Errorf("copy: no reused method in the prompt")
	}
	return []report.Completion{{Text: "```python\n" + m[1] + "```\n", FinishReason: "stop"}}, nil
}
