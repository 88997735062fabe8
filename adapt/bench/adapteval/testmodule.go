package adapteval

import (
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// testModule is what the loader needs to know of a task's unittest module.
type testModule struct {
	// imports holds which of the context module's two names ("<stem>",
	// "ctx_<stem>") an import statement of the module names.
	imports map[string]bool
	// mentions holds which of them only a string literal names (a
	// mock.patch target, importlib.import_module).
	mentions map[string]bool
	// class reports whether the test class is defined.
	class bool
	// methods are the test methods of the class (its own and those it
	// inherits from classes of the same module), sorted as unittest's
	// loader sorts them.
	methods []string
}

// analyzeTestModule reads the test module src of a task whose context
// module is stem and whose test class is class.
func analyzeTestModule(src, stem, class string) (*testModule, error) {
	f, err := parsePy(src)
	if err != nil {
		return nil, err
	}
	tm := &testModule{imports: map[string]bool{}, mentions: map[string]bool{}}
	names := []string{stem, "ctx_" + stem}
	for _, im := range syntax.PyImports(f.root, f.src) {
		if im.Future || im.Level > 0 {
			continue
		}
		if m, _, _ := strings.Cut(im.Module, "."); slices.Contains(names, m) {
			tm.imports[m] = true
		}
	}
	f.root.Walk(func(n *syntax.Node) bool {
		if n.Type != "string" {
			return true
		}
		s := f.text(n)
		for _, name := range names {
			if containsModule(s, name) {
				tm.mentions[name] = true
			}
		}
		return false
	})
	classes := map[string]*syntax.Node{}
	for _, p := range f.defs("class_definition") {
		c := p[len(p)-1]
		if _, ok := classes[f.name(c)]; !ok {
			classes[f.name(c)] = c
		}
	}
	c, ok := classes[class]
	if !ok {
		return tm, nil
	}
	tm.class = true
	seen := map[string]bool{}
	var collect func(c *syntax.Node)
	collect = func(c *syntax.Node) {
		if seen[f.name(c)] {
			return
		}
		seen[f.name(c)] = true
		for _, fn := range bodyFuncs(c) {
			if n := f.name(fn); strings.HasPrefix(n, "test") && !slices.Contains(tm.methods, n) {
				tm.methods = append(tm.methods, n)
			}
		}
		if sup := c.Child("superclasses"); sup != nil {
			for _, b := range sup.Children {
				if b.Type == "identifier" {
					if base, ok := classes[f.text(b)]; ok {
						collect(base)
					}
				}
			}
		}
	}
	collect(c)
	slices.Sort(tm.methods)
	return tm, nil
}

// containsModule reports whether the string literal s names module m as a
// whole dotted component ("ctx_utils", "ctx_utils.requests").
func containsModule(s, m string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], m)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIdentByte(s[j-1])
		after := j+len(m) == len(s) || !isIdentByte(s[j+len(m)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
