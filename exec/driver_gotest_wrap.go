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
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// GoTest wraps the test binary so that the code under test cannot print
// its own verdict. Its output is the binary's stdout, which that code
// shares, so the driver brackets the framework's run with markers that
// carry a nonce the code does not know:
//
//   - a package of the driver's, added to the build through -overlay (the
//     workspace is not touched) at a random path of the module, is
//     imported by a test file of the package under test, so that its init
//     runs before any of the package's own code (a package's imports are
//     initialized first). It reads the nonce from stdin, which the host
//     writes and closes, and so leaves nothing to read there. The nonce is
//     in no file, no argument and no environment variable.
//   - TestMain (the driver's, or the package's own with each m.Run() call
//     made wrapRun(m)) prints the start marker just before the framework
//     runs the tests and the end marker with m.Run's code just after.
//
// The host reads only what comes between the markers. Framing printed
// before the start marker counts for nothing and is evidence
// (Tamper "forged-framing"); a binary that leaves after the start marker
// without the end marker, with status 0 or with every test reported as
// passing, is evidence ("exit-before-end"): no honest run does that (a
// panic or a failed test leaves a test that did not pass).
const (
	goMarkStart = "\x1eadaptbench-gotest start "
	goMarkEnd   = "\x1eadaptbench-gotest end "
)

// goWrapSource is the driver's package in the test binary. Its init reads
// the nonce (one line, at most 128 bytes) from stdin before any code of
// the package under test runs.
const goWrapSource = `package adaptbenchwrap

import (
	"os"
	"strconv"
	"testing"
)

var nonce []byte

func init() {
	var b [128]byte
	n := 0
	for n < len(b) {
		k, err := os.Stdin.Read(b[n:])
		n += k
		if err != nil || k == 0 || b[n-1] == '\n' {
			break
		}
	}
	if n > 0 && b[n-1] == '\n' {
		n--
	}
	nonce = append([]byte(nil), b[:n]...)
}

// Run runs the tests between the driver's markers.
func Run(m *testing.M) int {
	os.Stdout.Write(append(append([]byte("\n` + goMarkStart + `"), nonce...), '\n'))
	code := m.Run()
	os.Stdout.Write(append(append(append([]byte("\n` + goMarkEnd + `"), nonce...), " "+strconv.Itoa(code)...), '\n'))
	return code
}
`

// goWrap is the overlay that wraps one build's test binary.
type goWrap struct {
	dir     string // host temporary directory of the overlay's files
	overlay string // the -overlay file, in dir
}

// goWrapID names the wrapper's package: random, so that code written
// before the run cannot name it (a //go:linkname to its nonce), and the
// same for every build of this process, so that the build cache keeps it
// compiled.
var goWrapID = sync.OnceValue(func() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
})

var moduleLine = regexp.MustCompile(`(?m)^\s*module\s+("[^"]+"|\S+)`)

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
	// The package's path sorts before the module's other packages, so that
	// none of them is initialized before it.
	id := goWrapID()
	wrapDir, alias := "0adaptbench"+id, "adaptbench"+id
	importPath := modPath + "/" + wrapDir

	tmp, err := os.MkdirTemp("", "adaptbench-gowrap-")
	if err != nil {
		return nil, fmt.Errorf("exec: GoTest: %w", err)
	}
	w := &goWrap{dir: tmp, overlay: filepath.Join(tmp, "overlay.json")}
	replace := map[string]string{}
	add := func(target, name, src string) error {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			return fmt.Errorf("exec: GoTest: %w", err)
		}
		replace[target] = p
		return nil
	}
	fail := func(err error) (*goWrap, error) {
		w.remove()
		return nil, err
	}
	if err := add(filepath.Join(ws, wrapDir, "wrap.go"), "wrap.go", goWrapSource); err != nil {
		return fail(err)
	}
	hasMain := false
	files := append(append([]string(nil), bp.TestGoFiles...), bp.XTestGoFiles...)
	for i, name := range files {
		src, err := os.ReadFile(filepath.Join(pkgDir, name))
		if err != nil {
			return fail(fmt.Errorf("exec: GoTest: %w", err))
		}
		out, main, err := wrapTestMain(src, alias, importPath)
		if err != nil {
			return fail(fmt.Errorf("exec: GoTest: %s: %w", name, err))
		}
		hasMain = hasMain || main
		if out != nil {
			if err := add(filepath.Join(pkgDir, name), fmt.Sprintf("test%d.go", i), string(out)); err != nil {
				return fail(err)
			}
		}
	}
	gen := fmt.Sprintf("package %s\n\nimport %s %q\n\nvar _ = %s.Run\n", bp.Name, alias, importPath, alias)
	if !hasMain {
		gen = fmt.Sprintf("package %s\n\nimport (\n\t\"os\"\n\t\"testing\"\n\n\t%s %q\n)\n\nfunc TestMain(m *testing.M) { os.Exit(%s.Run(m)) }\n", bp.Name, alias, importPath, alias)
	}
	if err := add(filepath.Join(pkgDir, "zz_"+alias+"_test.go"), "main_test.go", gen); err != nil {
		return fail(err)
	}
	b, _ := json.Marshal(map[string]any{"Replace": replace})
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

// wrapTestMain rewrites a test file that declares TestMain: each call
// p.Run() where p is a parameter of type *testing.M becomes
// alias.Run(p), and the file imports importPath as alias. The edits keep
// every line where it was, so that positions in messages stay right. It
// returns nil when the file declares no TestMain, and an error when it
// declares one whose m.Run() it cannot find.
func wrapTestMain(src []byte, alias, importPath string) (out []byte, hasMain bool, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false, nil // the compiler reports it
	}
	if !hasTestMain(f) {
		return nil, false, nil
	}
	testing := testingName(f)
	isM := func(e ast.Expr) bool { return isTestingM(e, testing) }
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
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
				edits = append(edits, edit{off(call.Pos()), off(call.End()), alias + ".Run(" + x.Name + ")"})
			}
			return true
		})
		return true
	})
	if len(edits) == 0 {
		return nil, true, fmt.Errorf("TestMain: no call m.Run() on its *testing.M parameter to wrap")
	}
	// The import goes on the package clause's line.
	edits = append(edits, edit{off(f.Name.End()), off(f.Name.End()), fmt.Sprintf("; import %s %q", alias, importPath)})
	// From the end back; a call seen from two functions (a literal
	// inside TestMain) is edited once.
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	edits = slices.CompactFunc(edits, func(a, b edit) bool { return a.start == b.start })
	out = bytes.Clone(src)
	for _, e := range edits {
		out = append(out[:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out, true, nil
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

// isTestingM reports whether e is *testing.M, package testing being
// imported as testing.
func isTestingM(e ast.Expr, testing string) bool {
	st, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	if sel, ok := st.X.(*ast.SelectorExpr); ok {
		x, ok := sel.X.(*ast.Ident)
		return ok && x.Name == testing && sel.Sel.Name == "M"
	}
	id, ok := st.X.(*ast.Ident)
	return ok && testing == "." && id.Name == "M"
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
