package mine

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/version"
	"maps"
	"slices"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/versioned"
	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// origin is where a mined problem came from: its record in the task's
// versioned.Detail (field Mined), read by originOf.
type origin struct {
	// Problem is "uses-new-api" (write a function that uses what release
	// Version added) or "adapt-to-new-version" (adapt the function as it
	// was at Previous to Version).
	Problem string `json:"problem"`
	// Module, Version and Previous: the module and the two releases
	// compared.
	Module   string `json:"module"`
	Version  string `json:"version"`
	Previous string `json:"previous"`
	// Package is the import path of the package whose tests hold the
	// function.
	Package string `json:"package"`
	// Changes are the API changes the function exercises.
	Changes []Change `json:"changes"`
	// File and Function locate the function at Version (the file relative
	// to the module root); PreviousFile and PreviousFunction at Previous,
	// for an adaptation.
	File             string `json:"file"`
	Function         string `json:"function"`
	PreviousFile     string `json:"previous_file,omitempty"`
	PreviousFunction string `json:"previous_function,omitempty"`
	// API is the API solve stands for (its key: "path.F", "path.T.M"),
	// Signature solve's, and Sites how many calls of the function's the
	// hidden check replaces.
	API       string `json:"api"`
	Signature string `json:"signature"`
	Sites     int    `json:"sites"`
	// Trivial are the trivial answers, each of which fails the hidden
	// check at Version: "start" (the starting code), "zero" (zero
	// values), "panic", "previous" (the N-1 reference: an adaptation's
	// starting code) and "print" (an example's visible output printed).
	Trivial map[string]string `json:"trivial,omitempty"`
	// PreviousOutcome is what the reference gave at Previous, which makes
	// the problem version-conditioned ("compile-error" or "failed"), and
	// PreviousDetail the first line of the compiler's or the test's
	// message.
	PreviousOutcome string `json:"previous_outcome"`
	PreviousDetail  string `json:"previous_detail,omitempty"`
}

// originOf decodes the record of a mined problem. An error names the task:
// one that is not a version-conditioned task, or one that was not mined.
func originOf(t *adapt.Task) (*origin, error) {
	d, err := versioned.DetailOf(t)
	if err != nil {
		return nil, err
	}
	if len(d.Mined) == 0 {
		return nil, fmt.Errorf("mine: task %q was not mined (its detail has no mined record)", t.ID)
	}
	var o origin
	if err := json.Unmarshal(d.Mined, &o); err != nil {
		return nil, fmt.Errorf("mine: task %q: mined record: %w", t.ID, err)
	}
	return &o, nil
}

// The files of a problem's workspace, beside a go.mod requiring the
// release and a go.sum with the hashes of both releases' module graphs.
//
// solutionFile holds solve, the target: the reference, or the starting
// code (uses-new-api: a body that panics; adapt: the call at N-1, its
// arguments mapped onto solve's parameters by their text or as
// constants).
//
// checkFile holds the function's copies (TestVisibleX, TestHiddenX; an
// example's, and the tests comparing what each prints with its output,
// as go test does), after the declarations of its package's test files it
// needs, its imports kept (a module package named like a standard one is
// aliased: github.com/pkg/errors is pkgerrors) and the package under
// test's exported names qualified when it was an in-package test.
const (
	solutionFile = "solution_test.go"
	checkFile    = "check_test.go"
)

// makeTasks writes a candidate's problem (c.task) and the same workspace
// requiring the previous release (c.older), with its trivial answers.
// why says why it cannot be written (the call at N-1 does not map onto
// solve's parameters, a file that does not format).
func makeTasks(c *candidate) (why string, err error) {
	prev, cur := c.at[0], c.at[1]
	mod := c.module
	g := c.calls
	visible, hidden, check, err := checkSource(c.cur, g)
	if err != nil {
		return "the check does not format: " + err.Error(), nil
	}
	ref, err := solveFile(c.cur.Package, g, g.Imports, g.body(g.Call))
	if err != nil {
		return "the reference does not format: " + err.Error(), nil
	}
	start := ""
	if c.problem == problemAdapt {
		call, imports, why := previousCall(g, c.old)
		if why != "" {
			return why, nil
		}
		if start, err = solveFile(c.cur.Package, g, imports, g.body(call)); err != nil {
			return "the starting code does not format: " + err.Error(), nil
		}
	} else if start, err = solveFile(c.cur.Package, g, g.Imports, "\tpanic(\"not implemented\")"); err != nil {
		return "the starting code does not format: " + err.Error(), nil
	}
	if c.trivial, err = trivialAnswers(c, start); err != nil {
		return "a trivial answer does not format: " + err.Error(), nil
	}
	sums := append(slices.Clone(cur.build.goSum), prev.build.goSum...)
	slices.Sort(sums)
	sums = slices.Compact(sums)
	goLine := cur.rel.Go
	if v := c.cur.GoVersion; v != "" && version.Compare(v, "go"+goLine) > 0 {
		goLine = strings.TrimPrefix(version.Lang(v), "go")
	}
	// Both workspaces require the modules N's packages and tests need at
	// N's versions (at least), so that at N-1 only the module under test
	// differs: a test importing a module that N-1 did not require still
	// builds, and fails on the API alone.
	curDeps, prevDeps := cur.build.deps, mergeDeps(cur.build.deps, prev.build.deps)
	workspace := func(r *release, deps []adapt.Package) []adapt.File {
		var req strings.Builder
		fmt.Fprintf(&req, "\t%s %s\n", mod, r.Version)
		for _, d := range deps {
			fmt.Fprintf(&req, "\t%s %s\n", d.Name, d.Version)
		}
		return []adapt.File{
			{Path: checkFile, Content: check},
			{Path: "go.mod", Content: fmt.Sprintf("module adaptbench.invalid/mined\n\ngo %s\n\nrequire (\n%s)\n", goLine, req.String())},
			{Path: "go.sum", Content: strings.Join(sums, "\n") + "\n"},
		}
	}
	env := func(r *release, deps []adapt.Package) *adapt.Environment {
		return &adapt.Environment{Runtime: "go" + goLine, Packages: append([]adapt.Package{{Name: mod, Version: r.Version}}, deps...)}
	}
	t := adapt.Task{
		ID: c.id, Language: adapt.Go, Framework: adapt.FrameworkGo,
		Code:        start,
		Target:      adapt.Target{Path: solutionFile, Content: ref},
		Files:       workspace(cur.rel, curDeps),
		Requirement: adapt.Requirement{Task: requirement(c, goLine)},
		Reference:   ref,
		Tests:       []adapt.Test{{Name: visible, File: checkFile}, {Name: hidden, File: checkFile}},
		Labels: map[string]string{
			"benchmark": "go-mined", "library": mod, "go": goLine,
			"type_of_change": typeOfChange[c.group], "style": style(c.cur),
		},
		Provenance: &adapt.Provenance{Generator: "versioned-mine", Source: mod},
		Env:        env(cur.rel, curDeps),
	}
	t.Labels["category"] = libapi.Categorize(t.Labels["type_of_change"]).String()
	o := origin{
		Problem: c.problem, Module: mod, Version: cur.rel.Version, Previous: prev.rel.Version,
		Package: c.pkg, Changes: c.changes, File: c.cur.File, Function: c.cur.Name,
		API: g.Key, Signature: g.Signature(), Sites: len(g.sites), Trivial: map[string]string{},
	}
	for stage, code := range c.trivial {
		o.Trivial[trivialKeys[stage]] = code
	}
	if c.prev != nil {
		o.PreviousFile, o.PreviousFunction = c.prev.File, c.prev.Name
	}
	// The API hit rate looks for the API solve stands for, by identity.
	d := &versioned.Detail{
		Version: cur.rel.Version, Release: cur.rel.Month, OtherVersion: prev.rel.Version, OtherRelease: prev.rel.Month,
		Runtime: goLine, Function: "solve", VisibleTests: []string{visible}, APICalls: []string{g.Key},
	}
	if err := setOrigin(&t, d, &o); err != nil {
		return "", err
	}
	older := t
	older.ID = t.ID + "@" + prev.rel.Version
	older.Files = workspace(prev.rel, prevDeps)
	older.Env = env(prev.rel, prevDeps)
	c.task, c.older = &t, &older
	return "", nil
}

// previousCall is the call at N-1 (old's first) in terms of solve's
// parameters (g's first call's arguments): each argument is one of
// solve's, the same expression at N, or a constant. why says why it is
// not.
func previousCall(g, old *siteGroup) (call string, imports map[string][2]string, why string) {
	names := g.paramNames()
	ns, os := g.sites[0], old.sites[0]
	args := map[string]string{}
	offset := 0
	if g.Method {
		args[strings.TrimPrefix(ns.recv, "&")] = names[0]
		offset = 1
	}
	for i, a := range ns.args {
		if _, dup := args[a]; !dup {
			args[a] = names[offset+i]
		}
	}
	var out []string
	for i, a := range os.args {
		switch {
		case args[a] != "":
			out = append(out, args[a])
		case os.consts[i] != "":
			out = append(out, os.consts[i])
		default:
			return "", nil, fmt.Sprintf("the call at N-1 passes %s, which solve is not given", a)
		}
	}
	if os.ellipsis && len(out) > 0 {
		out[len(out)-1] += "..."
	}
	imports = maps.Clone(g.Imports)
	fun := old.Fun
	if old.Method {
		recv := args[strings.TrimPrefix(os.recv, "&")]
		if recv == "" {
			return "", nil, fmt.Sprintf("the call at N-1 is on %s, which solve is not given", os.recv)
		}
		if old.Field {
			return recv + "." + old.Name, imports, ""
		}
		fun = recv + "." + old.Name
	} else {
		for p, im := range old.Imports {
			if _, ok := imports[p]; !ok {
				imports[p] = im
			}
		}
	}
	return fun + "(" + strings.Join(out, ", ") + ")", imports, ""
}

// solveFile writes solve's file with body, importing what it names of
// imports (a body that does not call the library must not fail on an
// unused import).
func solveFile(pkg string, g *siteGroup, imports map[string][2]string, body string) (string, error) {
	decl := g.decl(body)
	return movedFile(pkg, usedImports(decl, imports), decl)
}

// trivialAnswers are the answers that must fail the hidden check, by
// funnel stage: the starting code, a body returning zero values, one that
// panics, the N-1 reference (an adaptation's starting code; a new API has
// none) and, for an example, a body printing the visible output.
func trivialAnswers(c *candidate, start string) (map[string]string, error) {
	g := c.calls
	out := map[string]string{stageStart: start}
	var err error
	if out[stageZero], err = solveFile(c.cur.Package, g, g.Imports, g.zeroBody()); err != nil {
		return nil, err
	}
	if out[stagePanic], err = solveFile(c.cur.Package, g, g.Imports, "\tpanic(\"trivial\")"); err != nil {
		return nil, err
	}
	if c.problem == problemAdapt {
		out[stagePrev] = start
	}
	if c.cur.Example {
		imports := maps.Clone(g.Imports)
		if _, ok := imports["fmt"]; !ok {
			imports["fmt"] = [2]string{"fmt", "fmt"}
		}
		want := c.cur.Output
		if len(g.sites) == 1 {
			want, _, _ = strings.Cut(strings.TrimSpace(want), "\n") // the visible check's first line
		}
		body := fmt.Sprintf("\tfmt.Print(%q)\n%s", want, g.zeroBody())
		if out[stagePrint], err = solveFile(c.cur.Package, g, imports, body); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// mergeDeps is a's modules and b's, each at the higher of its versions.
func mergeDeps(a, b []adapt.Package) []adapt.Package {
	out := slices.Clone(a)
	for _, d := range b {
		i := slices.IndexFunc(out, func(x adapt.Package) bool { return x.Name == d.Name })
		switch {
		case i < 0:
			out = append(out, d)
		case semver.Compare(d.Version, out[i].Version) > 0:
			out[i] = d
		}
	}
	slices.SortFunc(out, func(x, y adapt.Package) int { return strings.Compare(x.Name, y.Name) })
	return out
}

func setOrigin(t *adapt.Task, d *versioned.Detail, o *origin) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	d.Mined = b
	return versioned.SetDetail(t, d)
}

// setPrevious records in the problem what its reference gave at the
// previous release.
func setPrevious(c *candidate, res report.SampleResult) error {
	d, err := versioned.DetailOf(c.task)
	if err != nil {
		return err
	}
	o, err := originOf(c.task)
	if err != nil {
		return err
	}
	o.PreviousOutcome = res.Outcome.String()
	o.PreviousDetail = why(res)
	for _, l := range strings.Split(res.Detail, "\n") {
		if strings.Contains(l, solutionFile+":") {
			o.PreviousDetail = strings.TrimSpace(l)
			break
		}
	}
	return setOrigin(c.task, d, o)
}

// typeOfChange is the type_of_change label of each group, in
// GitChameleon's words (libapi.Categorize maps them).
var typeOfChange = map[string]string{
	kindAdded:      "new func/method/class",
	kindRemoved:    "name change",
	kindChanged:    "argument change",
	kindDeprecated: "deprecation",
}

// style is the "style" label: "example" (checked by its output) or
// "test" (checked by the test passing, a weaker check).
func style(tf *testFunc) string {
	if tf.Example {
		return "example"
	}
	return "test"
}

// requirement is the problem statement: what solve is, the check that
// judges it, and the declarations of the API at N it is about, each with
// its doc's first sentence (and, changed, as it was at N-1).
func requirement(c *candidate, goLine string) string {
	var b strings.Builder
	g := c.calls
	prev, cur := c.at[0].rel.Version, c.at[1].rel.Version
	what := "test"
	if c.cur.Example {
		what = "example"
	}
	api := strings.TrimPrefix(g.Key, g.Pkg+".")
	if p := c.at[1].api[g.Pkg]; p != nil {
		api = p.Name() + "." + api
	}
	if c.problem == problemAdapt {
		fmt.Fprintf(&b, "%s holds solve as it was written for %s at version %s. Adapt it to %s at version %s (Go %s): it must compile and do the same there", solutionFile, c.module, prev, c.module, cur, goLine)
	} else {
		fmt.Fprintf(&b, "Using %s at version %s (Go %s), complete solve in %s", c.module, cur, goLine, solutionFile)
	}
	fmt.Fprintf(&b, ":\n\n\t%s\n\nsolve does what %s does at %s. The module's %s %s of package %s calls solve where it used %s", g.Signature(), api, cur, what, c.cur.Name, c.pkg, api)
	if c.cur.Example {
		order := "exactly"
		if c.cur.Unordered {
			order = "these lines, in any order"
		}
		fmt.Fprintf(&b, ", and must print %s:\n\n%s\n", order, indent(strings.TrimRight(c.cur.Output, "\n")))
	} else {
		b.WriteString("; its assertions judge the answer.\n")
	}
	b.WriteString("\nThe API at " + cur + ":\n")
	seen := map[string]bool{}
	decl := func(pkg, name, old string) {
		if seen[pkg+"."+name] {
			return
		}
		seen[pkg+"."+name] = true
		api := c.at[1].api[pkg]
		if api == nil {
			return
		}
		o := lookup(api, name)
		if o == nil {
			return
		}
		fmt.Fprintf(&b, "\n\tpackage %s // %s\n\t%s\n", api.Name(), pkg, objectString(o))
		if doc := c.at[1].docs[pkg][name]; doc != "" {
			fmt.Fprintf(&b, "\t\t%s\n", doc)
		}
		if old != "" {
			fmt.Fprintf(&b, "\tat %s: %s\n", prev, old)
		}
	}
	old := ""
	for _, ch := range c.changes {
		if ch.key() == g.Key && ch.Kind == kindChanged {
			old = ch.Old
		}
	}
	decl(g.Pkg, strings.TrimPrefix(g.Key, g.Pkg+"."), old)
	for _, ch := range c.changes {
		old := ""
		if ch.Kind != kindAdded {
			old = ch.Old
		}
		if ch.Kind == kindRemoved {
			fmt.Fprintf(&b, "\n\tremoved at %s: %s\n", cur, ch.Old)
			continue
		}
		if ch.Kind == kindDeprecated {
			fmt.Fprintf(&b, "\n\tdeprecated at %s: %s\n\t\t%s\n", cur, ch.Old, ch.Message)
			continue
		}
		decl(ch.Package, ch.Name, old)
	}
	return b.String()
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}

// checkSource is the check file: the function's copies with its calls
// replaced by solve, the hidden one all of them, the visible one the
// first only (the hidden one when there is one call), with the test-file
// declarations they need; for an example, the tests that compare what
// each prints with its output (the visible one its first line only, when
// there is one call).
func checkSource(tf *testFunc, g *siteGroup) (visible, hidden, src string, err error) {
	rest := strings.TrimPrefix(strings.TrimPrefix(tf.Name, "Test"), "Example")
	rename := func(text, name string) string {
		return strings.Replace(text, "func "+tf.Name+"(", "func "+name+"(", 1)
	}
	visible, hidden = "TestVisible"+rest, "TestHidden"+rest
	var body strings.Builder
	body.WriteString(tf.Given)
	imports := maps.Clone(tf.Imports)
	if !tf.Example {
		body.WriteString(rename(g.Hidden, hidden) + "\n\n")
		if g.Visible != "" {
			body.WriteString(rename(g.Visible, visible) + "\n")
		} else {
			fmt.Fprintf(&body, "// %s is %s: the module's test has one call.\nfunc %s(t *testing.T) { %s(t) }\n", visible, hidden, visible, hidden)
		}
	} else {
		body.WriteString(rename(g.Hidden, "minedHidden"+rest) + "\n\n")
		vf, first := "minedHidden"+rest, true
		if g.Visible != "" {
			body.WriteString(rename(g.Visible, "minedVisible"+rest) + "\n\n")
			vf, first = "minedVisible"+rest, false
		}
		fmt.Fprintf(&body, exampleCheck, visible, vf, tf.Output, first, tf.Unordered, hidden, "minedHidden"+rest)
		for _, p := range []string{"io", "os", "slices", "strings"} {
			imports[p] = [2]string{p, p}
		}
	}
	imports["testing"] = [2]string{"testing", "testing"}
	src, err = movedFile(tf.Package, usedImports(body.String(), imports), body.String())
	return visible, hidden, src, err
}

// usedImports keeps the imports whose name the declarations select from
// (a call replaced by solve may have been a package's only use), and the
// blank ones.
func usedImports(decls string, imports map[string][2]string) map[string][2]string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+decls, parser.SkipObjectResolution)
	if err != nil {
		return imports // movedFile reports it
	}
	named := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				named[id.Name] = true
			}
		}
		return true
	})
	out := map[string][2]string{}
	for p, im := range imports {
		if im[0] == "_" || named[im[0]] {
			out[p] = im
		}
	}
	return out
}

const exampleCheck = `
// %[1]s checks what %[2]s prints.
func %[1]s(t *testing.T) {
	minedCheckOutput(t, %[2]s, %[3]q, %[4]v, %[5]v)
}

// %[6]s checks what %[7]s prints, as go test checks an example.
func %[6]s(t *testing.T) {
	minedCheckOutput(t, %[7]s, %[3]q, false, %[5]v)
}

// minedCheckOutput runs f with its standard output captured and compares
// the output with want as go test does (spaces at either end ignored;
// unordered: as sorted lines); firstLine compares the first lines only.
func minedCheckOutput(t *testing.T, f func(), want string, firstLine, unordered bool) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	func() {
		defer func() {
			os.Stdout = stdout
			w.Close()
			if p := recover(); p != nil {
				t.Fatalf("panic: %%v\noutput before it:\n%%s", p, <-done)
			}
		}()
		f()
	}()
	got := <-done
	norm := func(s string) string {
		s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
		if firstLine {
			s, _, _ = strings.Cut(s, "\n")
			return strings.TrimSpace(s)
		}
		if unordered {
			lines := strings.Split(s, "\n")
			slices.Sort(lines)
			s = strings.Join(lines, "\n")
		}
		return s
	}
	if norm(got) != norm(want) {
		t.Errorf("got:\n%%s\nwant:\n%%s", strings.TrimSpace(got), strings.TrimSpace(want))
	}
}
`
