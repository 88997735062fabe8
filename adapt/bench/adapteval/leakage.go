package adapteval

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
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
	sc := newScopes(src, root)
	occ := sc.renamed()
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
		old := o.Text(src)
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
	var b strings.Builder
	at := 0
	for _, o := range occ {
		b.Write(src[at:o.Start])
		b.WriteString(names[o.Text(src)])
		at = o.End
	}
	b.Write(src[at:])
	return b.String(), back, nil
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

// scopes is the scope analysis Obfuscate needs.
type scopes struct {
	src  []byte
	all  []*scope
	refs []ref // identifier occurrences, in source order
}

type scopeKind uint8

const (
	moduleScope scopeKind = iota
	funcScope             // function, lambda or comprehension
	classScope
)

type scope struct {
	kind     scopeKind
	parent   *scope
	bound    map[string]bool // every name bound in the scope
	keep     map[string]bool // bound but never renamed: defs, classes, imports
	global   map[string]bool
	nonlocal map[string]bool
}

// ref is an identifier occurrence that refers to a variable.
type ref struct {
	n *syntax.Node
	s *scope
}

func newScope(kind scopeKind, parent *scope) *scope {
	return &scope{kind: kind, parent: parent, bound: map[string]bool{}, keep: map[string]bool{}, global: map[string]bool{}, nonlocal: map[string]bool{}}
}

func newScopes(src []byte, root *syntax.Node) *scopes {
	sc := &scopes{src: src}
	mod := newScope(moduleScope, nil)
	sc.all = append(sc.all, mod)
	sc.walk(root, mod)
	return sc
}

func (sc *scopes) text(n *syntax.Node) string { return n.Text(sc.src) }

// renamed returns the occurrences to rename, in source order.
func (sc *scopes) renamed() []*syntax.Node {
	var out []*syntax.Node
	for _, r := range sc.refs {
		name := sc.text(r.n)
		if b := r.s.resolve(name); b != nil && b.kind == funcScope && !b.keep[name] && !b.global[name] &&
			name != "self" && name != "cls" {
			out = append(out, r.n)
		}
	}
	slices.SortFunc(out, func(a, b *syntax.Node) int { return a.Start - b.Start })
	return out
}

// resolve returns the scope name is bound in, as seen from s, or nil for
// a global or builtin name.
func (s *scope) resolve(name string) *scope {
	if s.global[name] {
		return nil
	}
	if !s.nonlocal[name] && s.bound[name] {
		return s
	}
	for p := s.parent; p != nil; p = p.parent {
		if p.kind == classScope {
			continue // class bodies are not visible from nested scopes
		}
		if p.kind == moduleScope {
			return nil
		}
		if p.global[name] {
			return nil
		}
		if !p.nonlocal[name] && p.bound[name] {
			return p
		}
	}
	return nil
}

// walk visits n in scope s: it records bindings and references, and opens
// scopes for functions, lambdas, classes and comprehensions.
func (sc *scopes) walk(n *syntax.Node, s *scope) {
	switch n.Type {
	case "function_definition", "lambda":
		sc.function(n, s)
		return
	case "class_definition":
		if name := n.Child("name"); name != nil {
			s.bound[sc.text(name)] = true
			s.keep[sc.text(name)] = true
		}
		cs := newScope(classScope, s)
		sc.all = append(sc.all, cs)
		for _, c := range n.Children {
			switch c.Field {
			case "name":
			case "body":
				sc.walk(c, cs)
			default: // superclasses, type parameters
				sc.walk(c, s)
			}
		}
		return
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		sc.comprehension(n, s)
		return
	case "import_statement", "import_from_statement", "future_import_statement":
		for _, c := range n.Children {
			if c.Field != "name" {
				continue
			}
			var bound string
			if c.Type == "aliased_import" {
				bound = sc.text(c.Child("alias"))
			} else {
				bound, _, _ = strings.Cut(sc.text(c), ".")
			}
			bound = strings.TrimSpace(bound)
			s.bound[bound] = true
			s.keep[bound] = true
		}
		return
	case "global_statement":
		for _, c := range n.Children {
			if c.Type == "identifier" {
				s.global[sc.text(c)] = true
			}
		}
		return
	case "nonlocal_statement":
		for _, c := range n.Children {
			if c.Type == "identifier" {
				s.nonlocal[sc.text(c)] = true
				sc.refs = append(sc.refs, ref{c, s})
			}
		}
		return
	case "decorated_definition":
		for _, c := range n.Children {
			sc.walk(c, s)
		}
		return
	case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
		if l := n.Child("left"); l != nil {
			sc.bind(l, s)
		}
	case "named_expression":
		if l := n.Child("name"); l != nil {
			sc.bind(l, s)
		}
	case "as_pattern_target":
		sc.bind(n, s)
	case "delete_statement":
		for _, c := range n.Children {
			sc.bind(c, s)
		}
	case "attribute":
		// Only the object is a reference; the attribute name is not.
		if o := n.Child("object"); o != nil {
			sc.walk(o, s)
		}
		return
	case "keyword_argument":
		if v := n.Child("value"); v != nil {
			sc.walk(v, s)
		}
		return
	case "identifier":
		sc.refs = append(sc.refs, ref{n, s})
		return
	}
	for _, c := range n.Children {
		sc.walk(c, s)
	}
}

// bind records the names a target binds in s (plain names, and names in
// tuple, list and starred targets; not attributes or subscripts).
func (sc *scopes) bind(t *syntax.Node, s *scope) {
	switch t.Type {
	case "identifier":
		s.bound[sc.text(t)] = true
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression",
		"list_splat_pattern", "list_splat", "as_pattern_target", "expression_list":
		for _, c := range t.Children {
			sc.bind(c, s)
		}
	}
}

// function opens the scope of a function or lambda: its name binds in s;
// decorators, defaults and annotations are evaluated in s; parameters and
// the body belong to the new scope.
func (sc *scopes) function(n *syntax.Node, s *scope) {
	fs := newScope(funcScope, s)
	sc.all = append(sc.all, fs)
	for _, c := range n.Children {
		switch c.Field {
		case "name":
			s.bound[sc.text(c)] = true
			s.keep[sc.text(c)] = true
		case "parameters":
			sc.params(c, s, fs)
		case "body":
			sc.walk(c, fs)
		case "return_type":
			sc.walk(c, s)
		default:
			if c.Named {
				sc.walk(c, s)
			}
		}
	}
}

// params binds a function's parameters in fs; their defaults and
// annotations are references in s.
func (sc *scopes) params(ps *syntax.Node, s, fs *scope) {
	for _, p := range ps.Children {
		switch p.Type {
		case "identifier":
			fs.bound[sc.text(p)] = true
			sc.refs = append(sc.refs, ref{p, fs})
		case "default_parameter", "typed_default_parameter", "typed_parameter":
			for _, c := range p.Children {
				switch {
				case c.Type == "identifier" && (c.Field == "name" || p.Type == "typed_parameter"):
					fs.bound[sc.text(c)] = true
					sc.refs = append(sc.refs, ref{c, fs})
				case c.Type == "list_splat_pattern" || c.Type == "dictionary_splat_pattern":
					sc.params(c, s, fs)
				case c.Named:
					sc.walk(c, s)
				}
			}
		case "list_splat_pattern", "dictionary_splat_pattern", "tuple_pattern":
			sc.params(p, s, fs)
		}
	}
}

// comprehension opens the scope of a comprehension: the iterable of its
// first for clause is evaluated in s, everything else in the new scope.
func (sc *scopes) comprehension(n *syntax.Node, s *scope) {
	cs := newScope(funcScope, s)
	if s.kind != funcScope {
		// A comprehension outside any function: its variables are not
		// a function's locals, leave them alone.
		cs.kind = classScope
	}
	sc.all = append(sc.all, cs)
	first := true
	for _, c := range n.Children {
		if c.Type == "for_in_clause" && first {
			first = false
			for _, cc := range c.Children {
				switch cc.Field {
				case "right":
					sc.walk(cc, s)
				case "left":
					sc.bind(cc, cs)
					sc.walk(cc, cs)
				default:
					if cc.Named {
						sc.walk(cc, cs)
					}
				}
			}
			continue
		}
		sc.walk(c, cs)
	}
}
