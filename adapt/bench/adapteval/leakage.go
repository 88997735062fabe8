package adapteval

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/syntax"
	"github.com/adaptbench/adaptbench/metrics"
)

// ErrUnsupported is wrapped when Obfuscate is asked for a language other
// than Python.
var ErrUnsupported = errors.New("adapteval: unsupported")

// ErrSyntax is wrapped when the code to obfuscate does not parse.
var ErrSyntax = errors.New("adapteval: code does not parse")

// ObfuscatedSuffix is added to the ID of a task's obfuscated variant.
const ObfuscatedSuffix = "/obfuscated"

// Obfuscate renames the parameters and local variables of every function
// of code (lambdas and comprehensions included) to var_0, var_1, … in the
// order they first appear, as the artifact's obfuscated-version/ does for
// the leakage probe of the paper (§VI-A), and returns the new code with the
// map back (obfuscated name → original). Function and class names, self
// and cls, names declared global, imported names, module-level names,
// attributes, keyword-argument names and the text of strings and comments
// (docstrings too) are left alone; a name that is local in several
// functions gets one new name. Numbers of the var_N words the code already
// has (in names, strings or comments) are skipped.
//
// Limits: a keyword argument that names a renamed parameter of a function
// defined in code (f(x=1) calling a nested def f(x)) is not renamed.
func Obfuscate(lang, code string) (string, map[string]string, error) {
	if lang != adapt.Python {
		return "", nil, fmt.Errorf("%w: obfuscating %s", ErrUnsupported, lang)
	}
	root, err := syntax.ParseNodes(syntax.Python, []byte(code))
	if err != nil {
		return "", nil, err
	}
	if root.Err {
		return "", nil, fmt.Errorf("%w", ErrSyntax)
	}
	src := []byte(code)
	occ := locals(root, src)
	// Number the names by first appearance, skipping taken numbers.
	// A var_N anywhere in the code (an identifier, a word of a string or
	// comment) keeps its number, so that the map back is exact.
	taken := map[string]bool{}
	for _, w := range varName.FindAllString(code, -1) {
		taken[w] = true
	}
	names := map[string]string{}
	back := map[string]string{}
	next := 0
	for _, o := range occ {
		old := o.Node.Text(src)
		if _, ok := names[old]; ok {
			continue
		}
		for taken["var_"+strconv.Itoa(next)] {
			next++
		}
		n := "var_" + strconv.Itoa(next)
		next++
		names[old] = n
		back[n] = old
	}
	edits := make([]syntax.TextEdit, len(occ))
	for i, o := range occ {
		edits[i] = syntax.TextEdit{Start: o.Node.Start, End: o.Node.End, Text: names[o.Node.Text(src)]}
	}
	out, _, err := syntax.ApplyEdits(src, edits)
	if err != nil {
		return "", nil, fmt.Errorf("adapteval: obfuscating: %w", err)
	}
	return string(out), back, nil
}

// locals returns the occurrences to rename, in source order: those of the
// parameters and local variables of functions, lambdas and of
// comprehensions inside functions (see syntax.PyScopes), but not function
// and class names, imported names, self and cls.
func locals(root *syntax.Node, src []byte) []syntax.Ref {
	return syntax.PyScopes(root, src).Locals(func(sym *syntax.Symbol) bool {
		return sym.Defined || sym.Imported || sym.Name == "self" || sym.Name == "cls"
	})
}

var varName = regexp.MustCompile(`\bvar_[0-9]+\b`)

// Deobfuscate maps the var_N names of code back to the originals (m maps
// obfuscated → original, as Obfuscate returns it), by whole words, as the
// artifact's probe does with a model's answer. Deobfuscate(Obfuscate(x))
// is x.
func Deobfuscate(code string, m map[string]string) string {
	if len(m) == 0 {
		return code
	}
	return varName.ReplaceAllStringFunc(code, func(s string) string {
		if o, ok := m[s]; ok {
			return o
		}
		return s
	})
}

// ObfuscatedTasks returns the obfuscated variant of each task: its snippet
// (Task.Code) obfuscated, everything else the same, the ID suffixed with
// ObfuscatedSuffix and the provenance saying so. The Probe holds the maps
// back; evaluate the variants with Probe.Model so that the answers get
// their original names back before they are tested. A task whose snippet
// cannot be obfuscated (it does not parse, or has no parameter or local to
// rename) has no variant and is listed in Probe.Skipped.
func ObfuscatedTasks(tasks []adapt.Task) ([]adapt.Task, *Probe) {
	p := &Probe{Maps: map[string]map[string]string{}, Skipped: map[string]string{}}
	var out []adapt.Task
	for _, t := range tasks {
		code, back, err := Obfuscate(t.Language, t.Code)
		switch {
		case err != nil:
			p.Skipped[t.ID] = err.Error()
			continue
		case len(back) == 0:
			p.Skipped[t.ID] = "no parameter or local variable to rename"
			continue
		}
		v := t
		v.ID = t.ID + ObfuscatedSuffix
		v.Code = code
		prov := &adapt.Provenance{Generator: Generator + "-obfuscate", Parent: t.ID, Operators: []string{"rename-locals"}}
		if t.Provenance != nil {
			prov.Source = t.Provenance.Source
		}
		v.Provenance = prov
		p.Maps[v.ID] = back
		out = append(out, v)
	}
	return out, p
}

// Probe holds what the leakage probe needs to evaluate obfuscated
// variants: the map back of each variant.
type Probe struct {
	// Maps holds, by variant task ID, the map obfuscated → original name.
	Maps map[string]map[string]string
	// Skipped holds, by task ID, why a task has no variant.
	Skipped map[string]string
}

// Model wraps m so that the completions for a variant come back with the
// original names (Deobfuscate), as the artifact maps the answers back
// before testing them. The journal of an evaluation then holds the mapped
// answers. Completions for other tasks are untouched.
func (p *Probe) Model(m adapt.Model) adapt.Model { return probeModel{m, p} }

type probeModel struct {
	adapt.Model
	p *Probe
}

func (pm probeModel) Complete(ctx context.Context, req adapt.Request) ([]adapt.Completion, error) {
	comps, err := pm.Model.Complete(ctx, req)
	if req.Task == nil {
		return comps, err
	}
	if m := pm.p.Maps[req.Task.ID]; m != nil {
		for i := range comps {
			comps[i].Text = Deobfuscate(comps[i].Text, m)
		}
	}
	return comps, err
}

// Leakage is the result of the leakage probe: the scores of the original
// tasks and of their obfuscated variants over the pairs both valid.
type Leakage struct {
	// Pairs counts the tasks valid in both runs; Adaptations their
	// adaptations with tests.
	Pairs       int `json:"pairs"`
	Adaptations int `json:"adaptations"`
	// Original and Obfuscated are pass@1-t over the pairs; Delta is
	// Obfuscated − Original and Relative is Delta / Original (the paper's
	// "−2.45 (−4.14%)").
	Original   float64 `json:"original"`
	Obfuscated float64 `json:"obfuscated"`
	Delta      float64 `json:"delta"`
	Relative   float64 `json:"relative"`
	// CI95 is a seeded bootstrap 95% interval of Delta (paired by task).
	CI95 *metrics.Interval `json:"ci95,omitempty"`
	// The same for pass@1-a, exact, over the adaptations with tests of the
	// pairs.
	OriginalAdapt   float64 `json:"original_adapt"`
	ObfuscatedAdapt float64 `json:"obfuscated_adapt"`
	DeltaAdapt      float64 `json:"delta_adapt"`
	RelativeAdapt   float64 `json:"relative_adapt"`
}

// Delta compares the report of the original tasks with that of their
// obfuscated variants (IDs with ObfuscatedSuffix), pairing each task with
// its variant and keeping the pairs valid in both.
func Delta(orig, obf *adapt.Report) Leakage {
	var l Leakage
	variants := map[string]adapt.TaskReport{}
	for _, tr := range obf.PerTask {
		if id, ok := strings.CutSuffix(tr.Task, ObfuscatedSuffix); ok && tr.Valid {
			variants[id] = tr
		}
	}
	var diffs []float64
	var sa, sb, aa, ab float64
	for _, tr := range orig.PerTask {
		v, ok := variants[tr.Task]
		if !ok || !tr.Valid {
			continue
		}
		a, b := pass1(tr.N, tr.C), pass1(v.N, v.C)
		sa += a
		sb += b
		diffs = append(diffs, b-a)
		vs := map[string]adapt.StepReport{}
		for _, s := range v.Steps {
			vs[s.ID] = s
		}
		for _, s := range tr.Steps {
			w, ok := vs[s.ID]
			if !ok {
				continue
			}
			aa += s.PassAt1
			ab += w.PassAt1
			l.Adaptations++
		}
	}
	l.Pairs = len(diffs)
	if l.Pairs == 0 {
		return l
	}
	l.Original, l.Obfuscated = sa/float64(l.Pairs), sb/float64(l.Pairs)
	l.Delta = l.Obfuscated - l.Original
	if l.Original != 0 {
		l.Relative = l.Delta / l.Original
	}
	if l.Adaptations > 0 {
		l.OriginalAdapt, l.ObfuscatedAdapt = aa/float64(l.Adaptations), ab/float64(l.Adaptations)
		l.DeltaAdapt = l.ObfuscatedAdapt - l.OriginalAdapt
		if l.OriginalAdapt != 0 {
			l.RelativeAdapt = l.DeltaAdapt / l.OriginalAdapt
		}
	}
	if len(diffs) > 1 {
		if ci, err := metrics.BootstrapMean(diffs, 2000, 0.95, 1); err == nil {
			l.CI95 = &ci
		}
	}
	return l
}

// String formats the probe's result as the paper's Table IX does: deltas
// in points, relative changes in parentheses.
func (l Leakage) String() string {
	return fmt.Sprintf("%d pairs: pass@1-t %.2f → %.2f, Δ %+.2f (%+.2f%%); pass@1-a %.2f → %.2f, Δ %+.2f (%+.2f%%)",
		l.Pairs, 100*l.Original, 100*l.Obfuscated, 100*l.Delta, 100*l.Relative,
		100*l.OriginalAdapt, 100*l.ObfuscatedAdapt, 100*l.DeltaAdapt, 100*l.RelativeAdapt)
}
