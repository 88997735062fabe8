package gomod

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	osexec "os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/internal/buildsys"
)

// The fast path of Module.Check (Config.BuildEach off): before the
// candidates are checked, Prepare type-checks every mutant with go/types
// against the compiled export data of its package's dependencies, so that a
// mutant that does not compile costs no "go test -c", and compiles the
// mutants that type-check as mutant schemata: one test binary per package
// holding every such mutant, each changed function body turned into a
// switch on a package variable set from $ADAPTBENCH_MUTANT at start-up (an
// arm per mutant, the original body as the default). Check then runs that
// binary with the mutant's number. What cannot be held in a schema (a
// change outside function bodies, a body with labels, a change of line
// count where the tests read source lines, a schema that does not build)
// or decided by go/types (a file it cannot parse, a missing export) is
// built alone as before.

// gcMaxErrors is how many errors gc reports before it stops ("too many
// errors").
const gcMaxErrors = 10

// mutantEnv names the environment variable that selects a schema's mutant.
const mutantEnv = "ADAPTBENCH_MUTANT"

// schemaVar is the package variable a schema switches on.
const schemaVar = "adaptbenchMutant"

// prepared is what Prepare decided about one mutant (file and source).
type prepared struct {
	compile string // type errors: the mutant does not compile
	errors  int    // how many
	bin     string // the schema's test binary, if the mutant is in one
	id      int    // its number in the schema
}

// goTypeEnv is what type-checking one package needs, read once per
// package from "go list -export -deps -test".
type goTypeEnv struct {
	importPath, dir, goVersion string
	files, testFiles, xtest    []string // base names
	exports                    map[string]string
	importMap                  map[string]string
	err                        error
	// Set by the first check.
	fset *token.FileSet
	gc   types.ImporterFrom
	asts map[string]*ast.File // the unchanged files, by base name
	// linesSeen is set when the package or its tests ask the runtime
	// for source lines or function names (runtime.Caller and its kin,
	// stack dumps, log's file flags): a schema then holds only mutants
	// that keep every line of the file where it was and every closure's
	// name.
	linesSeen bool
}

// lineObservers are the selectors through which code reads the source
// lines of running code.
var lineObservers = map[string]bool{"Caller": true, "Callers": true, "CallersFrames": true, "FuncForPC": true,
	"Stack": true, "PrintStack": true, "Lshortfile": true, "Llongfile": true, "AddSource": true}

type goListPkg struct {
	ImportPath, Dir, Name, Export, ForTest string
	GoFiles, TestGoFiles, XTestGoFiles     []string
	CgoFiles                               []string
	ImportMap                              map[string]string
	Module                                 *struct{ GoVersion string }
	Error                                  *struct{ Err string }
}

// typeEnv returns the type-checking environment of package pkg; the caller
// holds g.typeMu.
func (g *Module) typeEnv(ctx context.Context, pkg string) *goTypeEnv {
	if e := g.typeEnvs[pkg]; e != nil {
		return e
	}
	e := &goTypeEnv{exports: map[string]string{}}
	g.typeEnvs[pkg] = e
	cmd := osexec.CommandContext(ctx, g.goCmd(), "list", "-e", "-export", "-deps", "-test", "-json", "./"+pkg)
	cmd.Dir = g.dir
	cmd.Env = g.goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		e.err = fmt.Errorf("mutate: go list -export %s: %v: %s", pkg, err, stderr.Bytes())
		return e
	}
	want := path.Join(g.modPath, pkg)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goListPkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			e.err = fmt.Errorf("mutate: go list -export %s: %w", pkg, err)
			return e
		}
		switch {
		case p.ImportPath == want:
			if p.Error != nil || len(p.CgoFiles) > 0 {
				e.err = fmt.Errorf("mutate: package %s: cannot type-check it alone (%v, cgo files %v)", pkg, p.Error, p.CgoFiles)
				return e
			}
			e.importPath, e.dir = p.ImportPath, p.Dir
			e.files, e.testFiles, e.xtest = p.GoFiles, p.TestGoFiles, p.XTestGoFiles
			e.importMap = p.ImportMap
			if p.Module != nil && p.Module.GoVersion != "" {
				e.goVersion = "go" + p.Module.GoVersion
			}
		case p.ForTest == "" && p.Export != "" && !strings.Contains(p.ImportPath, " "):
			e.exports[p.ImportPath] = p.Export
		}
	}
	if e.importPath == "" {
		e.err = fmt.Errorf("mutate: go list -export %s: package %s not listed", pkg, want)
	}
	return e
}

// goEnv is the environment of every go command the module runs.
func (g *Module) goEnv() []string {
	env := append(os.Environ(), "CGO_ENABLED=0", "GOPROXY=off", "GOFLAGS="+exec.GoBuildFlags,
		"GOTOOLCHAIN=local", "GOWORK=off")
	return append(env, g.cfg.Env...)
}

// errImport marks a type check that could not import a dependency: no
// verdict on the mutant.
var errImport = errors.New("mutate: type check: import failed")

// typeCheck type-checks the package of file as "go test" compiles it (its
// files and in-package tests, then its external tests), file replaced by
// src. It returns the type errors, "file:line:col: message" one a line (""
// when the mutant compiles), and how many; an error when the check cannot
// decide (no export data, a file excluded by build constraints, a mutant
// go/parser rejects).
func (g *Module) typeCheck(ctx context.Context, file string, src []byte) (string, int, error) {
	pkg := path.Dir(file)
	g.typeMu.Lock()
	defer g.typeMu.Unlock()
	e := g.typeEnv(ctx, pkg)
	if e.err != nil {
		return "", 0, e.err
	}
	if !slices.Contains(e.files, path.Base(file)) {
		return "", 0, fmt.Errorf("mutate: %s is not compiled into its package (build constraints)", file)
	}
	if e.fset == nil {
		// One file set, importer and parse of the unchanged files for
		// every check of the package: the imported packages and the
		// syntax trees are read once (go/types changes neither).
		e.fset = token.NewFileSet()
		e.asts = map[string]*ast.File{}
		e.gc = importer.ForCompiler(e.fset, "gc", func(p string) (io.ReadCloser, error) {
			f, ok := e.exports[p]
			if !ok {
				return nil, fmt.Errorf("no export data for %q", p)
			}
			return os.Open(f)
		}).(types.ImporterFrom)
		for _, n := range slices.Concat(e.files, e.testFiles, e.xtest) {
			f, err := parser.ParseFile(e.fset, filepath.Join(e.dir, n), nil, parser.SkipObjectResolution)
			if err != nil {
				e.err = fmt.Errorf("mutate: %w", err)
				return "", 0, e.err
			}
			e.asts[n] = f
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && lineObservers[sel.Sel.Name] {
					e.linesSeen = true
				}
				return true
			})
		}
	}
	fset, gc := e.fset, e.gc
	parse := func(names []string) []*ast.File {
		out := make([]*ast.File, len(names))
		for i, n := range names {
			out[i] = e.asts[n]
		}
		return out
	}
	mutated, err := parser.ParseFile(fset, filepath.Join(e.dir, path.Base(file)), src, parser.SkipObjectResolution)
	if err != nil {
		return "", 0, errors.New("mutate: the mutant does not parse with go/parser")
	}
	files := parse(append(slices.Clone(e.files), e.testFiles...))
	files[slices.Index(e.files, path.Base(file))] = mutated
	xfiles := parse(e.xtest)
	var msgs []string
	importFailed := false
	conf := types.Config{
		GoVersion: e.goVersion,
		Sizes:     types.SizesFor("gc", runtime.GOARCH),
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok {
				msgs = append(msgs, err.Error())
				return
			}
			if strings.HasPrefix(te.Msg, "could not import") {
				importFailed = true
			}
			p := te.Fset.Position(te.Pos)
			rel, rerr := filepath.Rel(g.dir, p.Filename)
			if rerr != nil {
				rel = p.Filename
			}
			msgs = append(msgs, fmt.Sprintf("%s:%d:%d: %s", filepath.ToSlash(rel), p.Line, p.Column, te.Msg))
		},
	}
	var imp importerFunc = func(p, dir string, mode types.ImportMode) (*types.Package, error) {
		if m, ok := e.importMap[p]; ok {
			p = m
		}
		return gc.ImportFrom(p, dir, mode)
	}
	conf.Importer = imp
	tp, _ := conf.Check(e.importPath, fset, files, nil)
	if len(msgs) == 0 && len(e.xtest) > 0 {
		conf.Importer = importerFunc(func(p, dir string, mode types.ImportMode) (*types.Package, error) {
			if p == e.importPath {
				return tp, nil
			}
			return imp(p, dir, mode)
		})
		conf.Check(e.importPath+"_test", fset, xfiles, nil)
	}
	if importFailed {
		return "", 0, fmt.Errorf("%w: %s", errImport, strings.Join(msgs, "\n"))
	}
	if tp != nil && tp.Scope().Lookup(schemaVar) != nil {
		return "", 0, fmt.Errorf("mutate: package %s declares %s: no schema", pkg, schemaVar)
	}
	return strings.Join(msgs, "\n"), len(msgs), nil
}

type importerFunc func(path, dir string, mode types.ImportMode) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path, "", 0) }
func (f importerFunc) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	return f(path, dir, mode)
}

// Prepare type-checks the candidates (for mutate.Generate) and builds the
// schemata of those that type-check; Check then answers from what it
// found. It returns the time spent building and a release that removes
// the binaries and forgets the mutants. A mutant with type errors gets
// them as its compile messages, "file:line:col: message" as gc writes
// them (gc type-checks with types2, whose messages are go/types'); one
// with more errors than gc reports before it stops, which
// mutate.AllowUnresolved would judge on gc's first ones, is left to "go
// test -c".
func (g *Module) Prepare(ctx context.Context, cands []*mutate.Candidate) (time.Duration, func(), error) {
	if g.cfg.BuildEach {
		return 0, func() {}, nil
	}
	type mutant struct {
		file string
		src  []byte
	}
	seen := map[string]bool{}
	var typed []mutant         // type-checked without errors
	exact := map[string]bool{} // mutate.AllowUnresolved judges the messages
	byPkg := map[string][]mutant{}
	found := map[string]*prepared{}
	for _, c := range cands {
		if c.Src == nil || c.File == "" || !slices.Contains(g.pkgs, path.Dir(c.File)) {
			continue
		}
		k := buildsys.MutantKey(c.File, c.Src)
		if c.Policy == mutate.AllowUnresolved {
			exact[k] = true
		}
		if seen[k] || g.prepared.Has(k) { // or by an earlier Prepare not yet released
			continue
		}
		seen[k] = true
		msgs, n, err := g.typeCheck(ctx, c.File, c.Src)
		if ctx.Err() != nil {
			return 0, func() {}, ctx.Err()
		}
		if err != nil {
			continue // no verdict: built alone
		}
		if msgs != "" {
			found[k] = &prepared{compile: msgs, errors: n}
			continue
		}
		typed = append(typed, mutant{c.File, c.Src})
	}
	// What go test would vet, before any build: a mutant vet rejects
	// does not pass go test.
	vetted := make([]string, len(typed))
	vg, vctx := errgroup.WithContext(ctx)
	vg.SetLimit(exec.DefaultParallelism())
	for i, m := range typed {
		vg.Go(func() error {
			msg, err := g.vetMutant(vctx, m.file, m.src)
			vetted[i] = msg
			return err
		})
	}
	if err := vg.Wait(); err != nil {
		return 0, func() {}, err
	}
	for i, m := range typed {
		if vetted[i] != "" {
			found[buildsys.MutantKey(m.file, m.src)] = &prepared{compile: vetted[i], errors: 1}
			continue
		}
		byPkg[path.Dir(m.file)] = append(byPkg[path.Dir(m.file)], m)
	}
	for k := range exact {
		if p := found[k]; p != nil && p.errors > gcMaxErrors {
			delete(found, k)
		}
	}
	var took time.Duration
	var bins []string
	for _, pkg := range slices.Sorted(maps.Keys(byPkg)) {
		ms := byPkg[pkg]
		sch := newSchema(g.dir)
		g.typeMu.Lock()
		sch.keepLines = g.typeEnvs[pkg] != nil && g.typeEnvs[pkg].linesSeen
		g.typeMu.Unlock()
		ids := make([]int, len(ms))
		for i, m := range ms {
			orig, err := g.ReadFile(m.file)
			if err != nil {
				return took, func() {}, fmt.Errorf("mutate: %w", err)
			}
			ids[i] = sch.add(m.file, orig, m.src)
		}
		bin, d, err := g.buildSchema(ctx, pkg, sch)
		took += d
		if ctx.Err() != nil {
			return took, func() {}, ctx.Err()
		}
		if err != nil || bin == "" {
			continue // built alone, where a harness failure is the mutant's
		}
		bins = append(bins, bin)
		for i, m := range ms {
			if ids[i] > 0 {
				k := buildsys.MutantKey(m.file, m.src)
				found[k] = &prepared{bin: bin, id: ids[i]}
			}
		}
	}
	forget := g.prepared.Keep(found)
	return took, func() {
		forget()
		for _, b := range bins {
			os.Remove(b)
		}
	}, nil
}

// TypeErrors type-checks the module with file replaced by src
// (for mutate.Generate), with go/types against its packages' export data.
func (g *Module) TypeErrors(ctx context.Context, file string, src []byte) (string, bool) {
	msgs, _, err := g.typeCheck(ctx, file, src)
	return msgs, err == nil
}

// vetMutant runs go test's vet checks (goTestVet) on the package of file
// with file replaced by src and returns their findings, naming the file
// as the project does ("" when there are none).
func (g *Module) vetMutant(ctx context.Context, file string, src []byte) (string, error) {
	id := g.seq.Add(1)
	mut := filepath.Join(g.scratch, fmt.Sprintf("v%d_%s", id, path.Base(file)))
	if err := os.WriteFile(mut, src, 0o666); err != nil {
		return "", fmt.Errorf("mutate: %w", err)
	}
	defer os.Remove(mut)
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(g.dir, filepath.FromSlash(file)): mut}})
	ovFile := filepath.Join(g.scratch, fmt.Sprintf("v%d.overlay.json", id))
	if err := os.WriteFile(ovFile, ov, 0o666); err != nil {
		return "", fmt.Errorf("mutate: %w", err)
	}
	defer os.Remove(ovFile)
	msg, err := g.vet(ctx, path.Dir(file), ovFile)
	if rel, rerr := filepath.Rel(g.dir, mut); rerr == nil {
		msg = strings.ReplaceAll(msg, rel, file)
	}
	return strings.ReplaceAll(msg, mut, file), err
}

// buildSchema builds the test binary of package pkg with the schema's
// files swapped in. It returns "" when the schema does not build (its
// mutants are then built alone).
func (g *Module) buildSchema(ctx context.Context, pkg string, sch *schema) (string, time.Duration, error) {
	files := sch.files()
	if len(files) == 0 {
		return "", 0, nil
	}
	id := g.seq.Add(1)
	replace := map[string]string{}
	for file, text := range files {
		p := filepath.Join(g.scratch, fmt.Sprintf("s%d_%s", id, path.Base(file)))
		if err := os.WriteFile(p, text, 0o666); err != nil {
			return "", 0, fmt.Errorf("mutate: %w", err)
		}
		defer os.Remove(p)
		replace[filepath.Join(g.dir, filepath.FromSlash(file))] = p
	}
	name, err := packageName(files)
	if err != nil {
		return "", 0, nil
	}
	sel := filepath.Join(g.scratch, fmt.Sprintf("s%d_select.go", id))
	if err := os.WriteFile(sel, schemaSelect(name), 0o666); err != nil {
		return "", 0, fmt.Errorf("mutate: %w", err)
	}
	defer os.Remove(sel)
	replace[filepath.Join(g.dir, filepath.FromSlash(pkg), "zz_adaptbench_mutant.go")] = sel
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": replace})
	ovFile := filepath.Join(g.scratch, fmt.Sprintf("s%d.overlay.json", id))
	if err := os.WriteFile(ovFile, ov, 0o666); err != nil {
		return "", 0, fmt.Errorf("mutate: %w", err)
	}
	defer os.Remove(ovFile)
	dir := g.scratch
	if g.binDir != "" {
		dir = g.binDir
	}
	bin := filepath.Join(dir, fmt.Sprintf("s%d.test", id))
	// No symbol table or DWARF: linking is most of the build, and the
	// tests do not read them.
	msg, took, err := g.build(ctx, bin, pkg, "-overlay", ovFile, "-ldflags=-s -w")
	if err != nil {
		return "", took, err
	}
	if _, serr := os.Stat(bin); msg != "" || serr != nil {
		os.Remove(bin)
		return "", took, nil
	}
	return bin, took, nil
}

// packageName reads the package clause of one of the files.
func packageName(files map[string][]byte) (string, error) {
	for _, text := range files {
		f, err := parser.ParseFile(token.NewFileSet(), "", text, parser.PackageClauseOnly)
		if err != nil {
			return "", err
		}
		return f.Name.Name, nil
	}
	return "", errors.New("no file")
}

// schemaSelect is the file a schema adds to its package: the variable
// the switches read, set from the environment before any other package
// variable that depends on it (and removed from the environment, which
// the tests then see as they would without a schema).
func schemaSelect(pkg string) []byte {
	return fmt.Appendf(nil, `package %s

import (
	"os"
	"strconv"
)

var %s = func() int {
	n, _ := strconv.Atoi(os.Getenv(%q))
	os.Unsetenv(%q)
	return n
}()
`, pkg, schemaVar, mutantEnv, mutantEnv)
}

// A schema collects mutants of one package's files: per file, per
// changed function body, the mutants' bodies.
type schema struct {
	dir    string // the module copy: line directives name its files
	next   int
	byFile map[string]*schemaFile
	// keepLines admits only mutants whose changed bodies keep their
	// number of lines, so that the code after them, whose lines the
	// tests may read, stays where the mutant alone has it, and hold no
	// function literal, whose name (F.func1) the arms before it would
	// change.
	keepLines bool
}

type schemaFile struct {
	orig   []byte
	bodies []span        // the original's function bodies
	arms   map[int][]arm // by body index
}

type span struct {
	start, end int // byte offsets of "{" and past "}"
	labels     bool
	closures   bool // function literals, which the compiler numbers in order (F.func1)
}

type arm struct {
	id        int
	text      []byte
	line, col int // the body's position in the mutant
}

func newSchema(dir string) *schema { return &schema{dir: dir, byFile: map[string]*schemaFile{}} }

// funcBodies lists the function bodies of a Go file, or fails when it does
// not parse.
func funcBodies(src []byte) ([]span, *token.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	tf := fset.File(f.Pos())
	var out []span
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		s := span{start: tf.Offset(fd.Body.Lbrace), end: tf.Offset(fd.Body.Rbrace) + 1}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.LabeledStmt:
				s.labels = true
			case *ast.FuncLit:
				s.closures = true
			}
			return true
		})
		out = append(out, s)
	}
	return out, tf, nil
}

// outside returns src without the given spans.
func outside(src []byte, spans []span) []byte {
	var b []byte
	prev := 0
	for _, s := range spans {
		b = append(b, src[prev:s.start]...)
		prev = s.end
	}
	return append(b, src[prev:]...)
}

var nl = []byte("\n")

// add adds the mutant of file (whose original is orig) and returns its
// number, or 0 when the schema cannot hold it: it changes more than
// function bodies, a body it changes has labels (each arm would declare
// them again), or it moves lines or renames closures the tests may read
// (keepLines).
func (s *schema) add(file string, orig, src []byte) int {
	sf := s.byFile[file]
	if sf == nil {
		bodies, _, err := funcBodies(orig)
		if err != nil {
			return 0
		}
		sf = &schemaFile{orig: orig, bodies: bodies, arms: map[int][]arm{}}
		s.byFile[file] = sf
	}
	mb, tf, err := funcBodies(src)
	if err != nil || len(mb) != len(sf.bodies) || !bytes.Equal(outside(src, mb), outside(sf.orig, sf.bodies)) {
		return 0
	}
	var changed []int
	for i, b := range mb {
		if !bytes.Equal(src[b.start:b.end], sf.orig[sf.bodies[i].start:sf.bodies[i].end]) {
			if b.labels || sf.bodies[i].labels {
				return 0
			}
			o := sf.bodies[i]
			if s.keepLines && (b.closures || o.closures || bytes.Count(src[b.start:b.end], nl) != bytes.Count(sf.orig[o.start:o.end], nl)) {
				return 0
			}
			changed = append(changed, i)
		}
	}
	if len(changed) == 0 {
		return 0
	}
	s.next++
	for _, i := range changed {
		p := tf.Position(tf.Pos(mb[i].start))
		sf.arms[i] = append(sf.arms[i], arm{id: s.next, text: src[mb[i].start:mb[i].end], line: p.Line, col: p.Column})
	}
	return s.next
}

// files returns the schema's version of each file that has mutants.
func (s *schema) files() map[string][]byte {
	out := map[string][]byte{}
	for file, sf := range s.byFile {
		if len(sf.arms) == 0 {
			continue
		}
		abs := filepath.Join(s.dir, filepath.FromSlash(file))
		tf := token.NewFileSet().AddFile("", -1, len(sf.orig))
		tf.SetLinesForContent(sf.orig)
		pos := func(off int) (int, int) {
			p := tf.Position(tf.Pos(off))
			return p.Line, p.Column
		}
		var b bytes.Buffer
		prev := 0
		for i, body := range sf.bodies {
			arms := sf.arms[i]
			if len(arms) == 0 {
				continue
			}
			b.Write(sf.orig[prev:body.start])
			fmt.Fprintf(&b, "{\n\tswitch %s {\n", schemaVar)
			for _, a := range arms {
				fmt.Fprintf(&b, "\tcase %d:\n/*line %s:%d:%d*/", a.id, abs, a.line, a.col)
				b.Write(a.text)
				b.WriteString("\n")
			}
			l, c := pos(body.start)
			fmt.Fprintf(&b, "\tdefault:\n/*line %s:%d:%d*/", abs, l, c)
			b.Write(sf.orig[body.start:body.end])
			l, c = pos(body.end)
			fmt.Fprintf(&b, "\n\t}\n}/*line %s:%d:%d*/", abs, l, c)
			prev = body.end
		}
		b.Write(sf.orig[prev:])
		out[file] = b.Bytes()
	}
	return out
}
