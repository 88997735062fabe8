package exec

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// GoTest wraps the test binary so that the code under test cannot print
// its own verdict. The framework's output is the binary's stdout, which
// that code shares and can take over (a pipe of its own in place of
// descriptor 1), so what the host trusts does not come that way:
//
//   - a package of the driver's, added to the build through -overlay (the
//     workspace is not touched) at a random path of the module, is
//     imported by every package of the module, so that its init runs
//     before any of their code (a package's imports are initialized
//     first). It reads the run's key from stdin, which the host writes and
//     closes, and takes descriptor 3, the job's results channel (or, from
//     a runner that gives none, a file of the workspace that the job's
//     shell opens there). The key is in no file, argument or environment
//     variable, and only in an unexported variable of that package.
//   - each top-level test and fuzz target of the test files gets a first
//     statement that registers a cleanup of the driver's; it runs after
//     the test's own cleanups and subtests and sends the test's outcome as
//     the framework holds it (Failed, Skipped) on descriptor 3, a line
//     signed with the key and numbered (parseSigned), never through the
//     output.
//   - TestMain (the driver's, or the package's own with each m.Run() call
//     made wrapRun(m)) prints a start marker just before the framework
//     runs the tests, then, after it, sends m.Run's code signed ("done")
//     and prints an end marker.
//
// The host reads the output between the markers for each test's messages
// and subtests, and the signed lines for the outcomes it trusts: a test
// is no better than the framework's signed outcome of it, and one the
// output says passed without a signed outcome did not pass. Framing
// printed before the start marker counts for nothing and is evidence
// (Tamper "forged-framing"); so is output that says better than the
// signed outcomes ("output-rewritten"), and a binary that leaves before
// its signed "done" with status 0 or with every test reported as passing
// ("exit-before-end"): no honest run does that (a panic or a failed test
// leaves a test that did not pass).
const (
	goMarkStart = "\x1eadaptbench-gotest start "
	goMarkEnd   = "\x1eadaptbench-gotest end "
)

// goWrapSource is the driver's package in the test binary. Its init reads
// the key and the markers' token (one line, "KEY TOKEN", at most 128
// bytes) from stdin before any code of the module runs. With no key (the
// listing run) it sends nothing.
const goWrapSource = `package adaptbenchwrap

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

var (
	key, token []byte
	mu         sync.Mutex
	seq        int
)

func init() {
	var b [128]byte
	n := 0
	for n < len(b) {
		k, err := syscall.Read(0, b[n:])
		if err != nil || k <= 0 {
			break
		}
		n += k
		if b[n-1] == '\n' {
			break
		}
	}
	line := b[:n]
	if n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	for i, c := range line {
		if c == ' ' {
			key, token = append([]byte(nil), line[:i]...), append([]byte(nil), line[i+1:]...)
		}
	}
	for i := range b {
		b[i] = 0
	}
	if len(key) == 0 {
		return
	}
	syscall.CloseOnExec(3)
	send("\"e\":\"hello\",\"v\":1")
}

// send writes one signed, numbered line on descriptor 3.
func send(body string) {
	mu.Lock()
	defer mu.Unlock()
	if len(key) == 0 {
		return
	}
	json := "{\"q\":" + strconv.Itoa(seq) + "," + body + "}"
	seq++
	h := sha256.New()
	h.Write([]byte(json))
	h.Write(key)
	line := []byte(json + "\t" + hex.EncodeToString(h.Sum(nil)[:16]) + "\n")
	for len(line) > 0 {
		k, err := syscall.Write(3, line)
		if err != nil || k <= 0 {
			return
		}
		line = line[k:]
	}
}

// Track sends the outcome of the test tb, named name, once it is final.
func Track(tb testing.TB, name string) {
	tb.Cleanup(func() {
		st := "passed"
		if tb.Failed() {
			st = "failed"
		} else if tb.Skipped() {
			st = "skipped"
		}
		send("\"e\":\"end\",\"test\":" + strconv.Quote(name) + ",\"status\":\"" + st + "\"")
	})
}

// Run runs the tests between the driver's markers.
func Run(m *testing.M) int {
	os.Stdout.Write(append(append([]byte("\n` + goMarkStart + `"), token...), '\n'))
	code := m.Run()
	send("\"e\":\"done\",\"exit\":" + strconv.Itoa(code))
	os.Stdout.Write(append(append(append([]byte("\n` + goMarkEnd + `"), token...), " "+strconv.Itoa(code)...), '\n'))
	return code
}
`

// goWrap is the overlay that wraps one build's test binary.
type goWrap struct {
	dir     string          // host temporary directory of the overlay's files
	overlay string          // the -overlay file, in dir
	tracked map[string]bool // the tests whose outcomes the binary signs
}

// goWrapID names the wrapper's package: random, so that code written
// before the run cannot name it (a //go:linkname to its key), and the
// same for every build of this process, so that the build cache keeps it
// compiled.
var goWrapID = sync.OnceValue(func() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
})

var moduleLine = regexp.MustCompile(`(?m)^\s*module\s+("[^"]+"|\S+)`)

// goOverlay gathers the files of an overlay.
type goOverlay struct {
	tmp     string
	replace map[string]string
}

// add makes src the content of target (absolute) in the build.
func (o *goOverlay) add(target, src string) error {
	p := filepath.Join(o.tmp, strconv.Itoa(len(o.replace))+".go")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		return fmt.Errorf("exec: GoTest: %w", err)
	}
	o.replace[target] = p
	return nil
}

// newGoWrap writes the overlay of the package in pkgDir (absolute) of the
// module rooted at ws. It returns a nil wrap when the package has no test
// files (go test -c then writes no binary).
func newGoWrap(ws, pkgDir string) (*goWrap, error) {
	mod, err := os.ReadFile(filepath.Join(ws, "go.mod"))
	if err != nil {
		return nil, nil // not a module root: the build says so
	}
	m := moduleLine.FindSubmatch(mod)
	if m == nil {
		return nil, fmt.Errorf("exec: GoTest: %s: no module line", filepath.Join(ws, "go.mod"))
	}
	modPath := string(m[1])
	if p, err := strconv.Unquote(modPath); err == nil {
		modPath = p
	}
	bctx := build.Default
	bctx.CgoEnabled = false
	bp, err := bctx.ImportDir(pkgDir, 0)
	if err != nil || len(bp.TestGoFiles)+len(bp.XTestGoFiles) == 0 {
		return nil, nil // no test files, or no package: the build says which
	}
	id := goWrapID()
	wrapDir, alias := "0adaptbench"+id, "adaptbench"+id
	importPath := modPath + "/" + wrapDir

	tmp, err := os.MkdirTemp("", "adaptbench-gowrap-")
	if err != nil {
		return nil, fmt.Errorf("exec: GoTest: %w", err)
	}
	w := &goWrap{dir: tmp, overlay: filepath.Join(tmp, "overlay.json"), tracked: map[string]bool{}}
	o := &goOverlay{tmp: tmp, replace: map[string]string{}}
	fail := func(err error) (*goWrap, error) {
		w.remove()
		return nil, err
	}
	if err := o.add(filepath.Join(ws, wrapDir, "wrap.go"), goWrapSource); err != nil {
		return fail(err)
	}
	// Every package of the module imports the driver's, which is so
	// initialized before any of them.
	if err := o.importEverywhere(bctx, ws, wrapDir, alias, importPath); err != nil {
		return fail(err)
	}
	hasMain := false
	files := append(append([]string(nil), bp.TestGoFiles...), bp.XTestGoFiles...)
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(pkgDir, name))
		if err != nil {
			return fail(fmt.Errorf("exec: GoTest: %w", err))
		}
		out, main, tracked, err := wrapTestFile(src, alias, importPath)
		if err != nil {
			return fail(fmt.Errorf("exec: GoTest: %s: %w", name, err))
		}
		hasMain = hasMain || main
		for _, n := range tracked {
			w.tracked[n] = true
		}
		if out != nil {
			// The compiler names the file and its lines as they are in
			// the workspace; the column (":1:1") keeps its messages'
			// columns, which a directive without one leaves unknown.
			target := filepath.Join(pkgDir, name)
			if err := o.add(target, "//line "+target+":1:1\n"+string(out)); err != nil {
				return fail(err)
			}
		}
	}
	gen := fmt.Sprintf("package %s\n\nimport %s %q\n\nvar _ = %s.Run\n", bp.Name, alias, importPath, alias)
	if !hasMain {
		gen = fmt.Sprintf("package %s\n\nimport (\n\t\"os\"\n\t\"testing\"\n\n\t%s %q\n)\n\nfunc TestMain(m *testing.M) { os.Exit(%s.Run(m)) }\n", bp.Name, alias, importPath, alias)
	}
	if err := o.add(filepath.Join(pkgDir, "zz_"+alias+"_test.go"), gen); err != nil {
		return fail(err)
	}
	b, _ := json.Marshal(map[string]any{"Replace": o.replace})
	if err := os.WriteFile(w.overlay, b, 0o644); err != nil {
		return fail(fmt.Errorf("exec: GoTest: %w", err))
	}
	return w, nil
}

func (w *goWrap) remove() {
	if w != nil {
		os.RemoveAll(w.dir)
	}
}

// importEverywhere adds to o, for each package of the module rooted at ws (not
// under testdata, vendor, or a directory whose name starts with "." or
// "_", nor in a module of its own) a file that imports importPath.
func (o *goOverlay) importEverywhere(bctx build.Context, ws, wrapDir, alias, importPath string) error {
	const maxDirs = 5000
	dirs := 0
	return filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != ws {
			n := d.Name()
			if n == "testdata" || n == "vendor" || n == wrapDir || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Lstat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		if dirs++; dirs > maxDirs {
			return filepath.SkipAll
		}
		bp, err := bctx.ImportDir(p, build.ImportComment)
		if err != nil || len(bp.GoFiles) == 0 {
			return nil
		}
		src := fmt.Sprintf("package %s\n\nimport _ %q\n", bp.Name, importPath)
		return o.add(filepath.Join(p, "zz_"+alias+".go"), src)
	})
}

// wrapTestFile rewrites a test file: each top-level test or fuzz target
// (func TestX(t *testing.T), func FuzzX(f *testing.F)) gets a first
// statement alias.Track(t, "TestX"), and, in a file that declares
// TestMain, each call p.Run() where p is a parameter of type *testing.M
// becomes alias.Run(p); the file then imports importPath as alias. The
// edits keep every line where it was, so that positions in messages stay
// right. It returns nil when there is nothing to edit, tracked the names
// of the tests it tracks, and an error when the file declares a TestMain
// whose m.Run() it cannot find.
func wrapTestFile(src []byte, alias, importPath string) (out []byte, hasMain bool, tracked []string, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false, nil, nil // the compiler reports it
	}
	testing := testingName(f)
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var edits []goEdit
	if testing != "" {
		for _, d := range f.Decls {
			if e, name := trackEdits(d, testing, alias, off); e != nil {
				edits = append(edits, e...)
				tracked = append(tracked, name)
			}
		}
	}
	if hasTestMain(f) {
		hasMain = true
		runs := runEdits(f, testing, alias, off)
		if len(runs) == 0 {
			return nil, true, nil, fmt.Errorf("TestMain: no call m.Run() on its *testing.M parameter to wrap")
		}
		edits = append(edits, runs...)
	}
	if len(edits) == 0 {
		return nil, hasMain, nil, nil
	}
	// The import goes on the package clause's line.
	edits = append(edits, goEdit{off(f.Name.End()), off(f.Name.End()), fmt.Sprintf("; import %s %q", alias, importPath)})
	// From the end back; a call seen from two functions (a literal
	// inside TestMain) is edited once.
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	edits = slices.CompactFunc(edits, func(a, b goEdit) bool { return a.start == b.start && a.end == b.end })
	out = bytes.Clone(src)
	for _, e := range edits {
		out = append(out[:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out, hasMain, tracked, nil
}

// goEdit replaces the bytes start:end of a file with text.
type goEdit struct {
	start, end int
	text       string
}

// trackEdits returns the edits that make d, when it is a top-level test or
// fuzz target, start with alias.Track on its parameter, and its name.
func trackEdits(d ast.Decl, testing, alias string, off func(token.Pos) int) ([]goEdit, string) {
	fd, ok := d.(*ast.FuncDecl)
	if !ok || fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil || fd.Type.Results != nil {
		return nil, ""
	}
	name := fd.Name.Name
	kind := ""
	switch {
	case isTestFunc(name, "Test"):
		kind = "T"
	case isTestFunc(name, "Fuzz"):
		kind = "F"
	default:
		return nil, ""
	}
	ps := fd.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 || !isTestingType(ps[0].Type, testing, kind) {
		return nil, ""
	}
	var edits []goEdit
	param := "adaptbenchT"
	switch {
	case len(ps[0].Names) == 0:
		edits = append(edits, goEdit{off(ps[0].Type.Pos()), off(ps[0].Type.Pos()), param + " "})
	case ps[0].Names[0].Name == "_":
		edits = append(edits, goEdit{off(ps[0].Names[0].Pos()), off(ps[0].Names[0].End()), param})
	default:
		param = ps[0].Names[0].Name
	}
	at := off(fd.Body.Lbrace) + 1
	edits = append(edits, goEdit{at, at, fmt.Sprintf(" %s.Track(%s, %q);", alias, param, name)})
	return edits, name
}

// isTestFunc reports whether name is prefix followed by nothing or by a
// character that is not a lower-case letter, as go test reads it.
func isTestFunc(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}

// runEdits returns the edits that make each p.Run() on a *testing.M
// parameter p in f alias.Run(p).
func runEdits(f *ast.File, testing, alias string, off func(token.Pos) int) []goEdit {
	isM := func(e ast.Expr) bool { return isTestingType(e, testing, "M") }
	var edits []goEdit
	ast.Inspect(f, func(n ast.Node) bool {
		var ft *ast.FuncType
		var body *ast.BlockStmt
		switch fn := n.(type) {
		case *ast.FuncDecl:
			ft, body = fn.Type, fn.Body
		case *ast.FuncLit:
			ft, body = fn.Type, fn.Body
		default:
			return true
		}
		if body == nil || ft.Params == nil {
			return true
		}
		params := map[string]bool{}
		for _, p := range ft.Params.List {
			if isM(p.Type) {
				for _, n := range p.Names {
					params[n.Name] = true
				}
			}
		}
		ast.Inspect(body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Run" {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && params[x.Name] {
				edits = append(edits, goEdit{off(call.Pos()), off(call.End()), alias + ".Run(" + x.Name + ")"})
			}
			return true
		})
		return true
	})
	return edits
}

// hasTestMain reports whether f declares a TestMain function.
func hasTestMain(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "TestMain" {
			return true
		}
	}
	return false
}

// testingName is the name f imports package testing under ("." for a dot
// import), or "" when it does not import it.
func testingName(f *ast.File) string {
	testing := ""
	for _, imp := range f.Imports {
		if imp.Path.Value == `"testing"` {
			testing = "testing"
			if imp.Name != nil {
				testing = imp.Name.Name
			}
		}
	}
	return testing
}

// isTestingType reports whether e is *testing.NAME, package testing being
// imported as testing.
func isTestingType(e ast.Expr, testing, name string) bool {
	st, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	if sel, ok := st.X.(*ast.SelectorExpr); ok {
		x, ok := sel.X.(*ast.Ident)
		return ok && x.Name == testing && sel.Sel.Name == name
	}
	id, ok := st.X.(*ast.Ident)
	return ok && testing == "." && id.Name == name
}

// goMarked is a test binary's output split at the driver's markers.
type goMarked struct {
	pre     []byte // before the start marker: counts for nothing
	body    []byte // the framework's run, between the markers
	started bool   // the start marker was found
	ended   bool   // so was the end marker after it
}

// splitMarked finds the markers of the run with nonce in out.
func splitMarked(out []byte, nonce string) goMarked {
	start := []byte("\n" + goMarkStart + nonce + "\n")
	i := bytes.Index(out, start)
	if i < 0 {
		return goMarked{pre: out}
	}
	m := goMarked{pre: out[:i], started: true}
	rest := out[i+len(start):]
	end := []byte("\n" + goMarkEnd + nonce + " ")
	if j := bytes.Index(rest, end); j >= 0 {
		m.body, m.ended = rest[:j+1], true
	} else {
		m.body = rest
	}
	return m
}

// forgedFraming returns the first line of out that looks like go test's
// own framing, or "".
func forgedFraming(out []byte) string {
	for line := range bytes.Lines(out) {
		l := strings.TrimRight(strings.TrimLeft(string(line), "\x16 \t"), "\r\n")
		if isFraming(l) || l == "PASS" || l == "FAIL" || strings.HasPrefix(l, "ok  \t") {
			return l
		}
	}
	return ""
}

// newNonce returns a fresh random nonce, in hexadecimal.
func newNonce() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// isMarked reports whether line is framing as -test.v=test2json marks it:
// 0x16, then "=== ", "--- ", "PASS" or "FAIL". (Other lines that start with
// 0x16 are output, and capped as such.)
func isMarked(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte{0x16})
	return ok && (bytes.HasPrefix(rest, []byte("=== ")) || bytes.HasPrefix(rest, []byte("--- ")) ||
		bytes.HasPrefix(rest, []byte("PASS")) || bytes.HasPrefix(rest, []byte("FAIL")))
}

// capSegments bounds the output between two framing lines (which, in
// -test.v=test2json output, start with 0x16) to its first head and last
// tail bytes, noting what it drops: test2json makes one JSON event of every
// line, and the driver keeps no more than the first 4*maxMessage bytes of
// a test's output anyway, so the host's work follows the framing, not the
// flood. The tail keeps what a test said last (t.Fatal after a flood).
func capSegments(b []byte, head, tail int) []byte {
	out := make([]byte, 0, min(len(b), 1<<20))
	var (
		seg   int    // bytes of the segment so far
		kept  int    // of them in out
		last  []byte // the segment's last bytes past the head
		lastN int    // bytes that went into last
	)
	flush := func() {
		if seg > kept {
			if i := bytes.IndexByte(last, '\n'); i >= 0 && i+1 < len(last) && seg-kept > len(last) {
				last = last[i+1:] // start the tail at a line
			}
			if len(out) > 0 && out[len(out)-1] != '\n' {
				out = append(out, '\n')
			}
			out = fmt.Appendf(out, "... [%d bytes of output omitted] ...\n", seg-kept-len(last))
			out = append(out, last...)
		}
		seg, kept, last, lastN = 0, 0, last[:0], 0
	}
	ran := map[string]bool{}
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i+1], b[i+1:]
		} else {
			b = nil
		}
		if isMarked(line) {
			flush()
			// A test runs once: a repeated "=== RUN" line is not the
			// framework's, and test2json need not convert it again.
			if run, ok := bytes.CutPrefix(line, []byte("\x16=== RUN   ")); ok {
				if ran[string(run)] {
					continue
				}
				if len(ran) < 1<<16 {
					ran[string(run)] = true
				}
			}
			out = append(out, line...)
			continue
		}
		seg += len(line)
		if room := head - kept; room > 0 {
			k := min(room, len(line))
			out = append(out, line[:k]...)
			kept += k
			line = line[k:]
		}
		last = append(last, line...)
		lastN += len(line)
		if len(last) > 2*tail {
			last = append(last[:0], last[len(last)-tail:]...)
		}
	}
	flush()
	return out
}
