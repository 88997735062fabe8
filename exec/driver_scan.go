package exec

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// staticForms are the known forms of code that reaches for its own verdict,
// as they read in a Python source: evidence to list beside a run's, never
// a verdict by itself (an honest file may name them for good reasons).
var staticForms = []struct {
	kind string
	re   *regexp.Regexp
}{
	{"results-path", regexp.MustCompile(`\.adaptbench-|results\.jsonl`)},
	{"framework-patch", regexp.MustCompile(`\b(TestResult|TestReport|TextTestResult)\b[^\n]*(=|setattr)|__subclasses__\(\)`)},
	{"reporter-reach", regexp.MustCompile(`import __main__|modules\[['"]__main__['"]\]|\bsys\.meta_path\b`)},
	{"introspection", regexp.MustCompile(`\bsys\._getframe\b|\binspect\.(currentframe|stack)\b|\bgc\.get_(referrers|referents|objects)\b|\.f_back\b|\bsys\.settrace\b`)},
	{"ctypes", regexp.MustCompile(`(?m)^\s*(import ctypes|from ctypes\b)`)},
	{"exit", regexp.MustCompile(`\bos\._exit\b|\bposix\._exit\b`)},
}

// scanPython looks for staticForms in the workspace's Python files (at
// most 200 files and 4MiB in all, regular files only, not under hidden
// directories), one piece of Static evidence per form and file.
func scanPython(dir string) []Tamper {
	var out []Tamper
	files, left := 0, int64(4<<20)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(p, ".py") {
			return nil
		}
		if files++; files > 200 {
			return filepath.SkipAll
		}
		fi, err := d.Info()
		if err != nil || fi.Size() > left {
			return nil
		}
		left -= fi.Size()
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		for _, f := range staticForms {
			if loc := f.re.FindIndex(src); loc != nil {
				line := 1 + bytes.Count(src[:loc[0]], []byte{'\n'})
				out = append(out, Tamper{Kind: f.kind, Static: true,
					Detail: rel + " line " + strconv.Itoa(line) + ": " + quoteShort(string(src[loc[0]:loc[1]]))})
			}
		}
		return nil
	})
	return out
}

// scanGo looks, in the answer's Go files (answer, relative to dir), for
// the forms of Go code that reach past the language's encapsulation: an
// import of package unsafe (memory at any address) and a //go:linkname
// directive (another package's unexported names). The driver's key is in
// unexported state of its package; these are how code in the same binary
// reads it. This is evidence from the run's own code, which adapt weighs
// against the reference's. With no answer named, the driver cannot tell
// the answer from trusted code: it reads every Go file of the workspace
// that is not a test file (not under testdata, vendor or hidden
// directories; at most 2000 files and 16MiB), and its evidence is Static,
// listed only.
func scanGo(dir string, answer []string) []Tamper {
	var out []Tamper
	scan := func(rel string, static bool) {
		b, err := ReadWorkspaceFile(dir, rel, 4<<20)
		if err != nil {
			return
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, b, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return // it does not compile: no run to weigh
		}
		add := func(kind string, pos token.Pos, what string) {
			out = append(out, Tamper{Kind: kind, Static: static,
				Detail: filepath.ToSlash(rel) + " line " + strconv.Itoa(fset.Position(pos).Line) + ": " + quoteShort(what)})
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"unsafe"` {
				add("unsafe-import", imp.Pos(), `import "unsafe"`)
				break
			}
		}
	links:
		for _, g := range f.Comments {
			for _, c := range g.List {
				if strings.HasPrefix(c.Text, "//go:linkname ") || c.Text == "//go:linkname" {
					add("linkname", c.Pos(), c.Text)
					break links
				}
			}
		}
	}
	if len(answer) > 0 {
		for _, a := range answer {
			if strings.HasSuffix(a, ".go") {
				scan(filepath.FromSlash(a), false)
			}
		}
		return out
	}
	files, left := 0, int64(16<<20)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if files++; files > 2000 {
			return filepath.SkipAll
		}
		fi, err := d.Info()
		if err != nil || fi.Size() > left {
			return nil
		}
		left -= fi.Size()
		rel, _ := filepath.Rel(dir, p)
		scan(rel, true)
		return nil
	})
	return out
}
