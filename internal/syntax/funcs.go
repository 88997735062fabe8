//go:build cgo

package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Func describes one function, method or constructor definition:
//
//   - Python: every function_definition, including async, nested and
//     decorated ones;
//   - Go: function and method declarations (function literals are not
//     definitions);
//   - Java: method, constructor and record compact-constructor
//     declarations, in any class, interface, enum, record or anonymous class
//     body, and also at the top level of a snippet (a bare method written
//     by a model).
type Func struct {
	// Name is the function's name; for a Java constructor, the class name.
	Name string
	// Container is the name of the class, interface, enum or record whose
	// body holds the definition with no other definition in between
	// (Python, Java; a Python method under an `if` in the class body
	// counts), or the Go receiver's base type ("T" for receivers T, *T and
	// *T[K]). It is "" for top-level functions, for functions nested in
	// functions and for methods of anonymous Java classes.
	Container string
	// Depth is the number of enclosing class and function definitions:
	// 0 for top-level functions and Go methods, 1 for a method of a
	// top-level class or a function nested in a top-level function.
	Depth int
	// Start is the byte offset where the whole definition starts,
	// including Python decorators and Java annotations and modifiers but
	// excluding any comment before it.
	Start int
	// DeclStart is the byte offset of the definition proper, after leading
	// Python decorators or Java annotations (and comments between them);
	// it equals Start when there are none.
	DeclStart int
	// BodyStart is the byte offset of the body: the first statement of a
	// Python block, the "{" of a Go or Java body. It is -1 when there is no
	// body (abstract and interface methods, Go function declarations
	// without body).
	BodyStart int
	// End is the byte offset just past the definition's last token.
	End int
	// Line is the 1-based line of Start.
	Line int
	// Indent is the leading white space (spaces and tabs) of the line
	// containing Start, up to Start.
	Indent string
	// Params are a Java method's or constructor's parameter types, white
	// space removed ("int", "List<String>", "String..."): what tells
	// overloads apart (Signature). Nil in other languages.
	Params []string
}

// Signature returns QualifiedName with the parameter types,
// "C.f(int,String)": a name Find takes that tells Java overloads apart.
func (f Func) Signature() string {
	return f.QualifiedName() + "(" + strings.Join(f.Params, ",") + ")"
}

// QualifiedName returns "Container.Name", or Name when Container is "".
func (f Func) QualifiedName() string {
	if f.Container == "" {
		return f.Name
	}
	return f.Container + "." + f.Name
}

// ErrNotFound is returned (wrapped, with the name looked for) when a
// function is not defined in a source.
var ErrNotFound = errors.New("syntax: function not found")

// Find returns the definition of the function name. See [FindFunction] for
// the accepted names and how a definition is chosen among several.
func (t *Tree) Find(name string) (Func, error) {
	name, params, sig := cutParams(name)
	container, short, err := splitName(name)
	if err != nil {
		return Func{}, err
	}
	best := -1
	for i, f := range t.funcs {
		if f.Name != short || (container != "" && f.Container != container) ||
			sig && strings.Join(f.Params, ",") != params {
			continue
		}
		if best < 0 || better(f, t.funcs[best]) {
			best = i
		}
	}
	if best < 0 {
		return Func{}, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	return t.funcs[best], nil
}

// better reports whether candidate a should be preferred over b, which
// comes earlier in the source.
func better(a, b Func) bool {
	if a.Depth != b.Depth {
		return a.Depth < b.Depth
	}
	return a.Container == "" && b.Container != ""
}

// cutParams splits "C.f(int, String)" into "C.f" and its parameter types
// without white space, "int,String"; sig is false for a name without
// parameter types.
func cutParams(name string) (rest, params string, sig bool) {
	name = strings.TrimSpace(name)
	i := strings.IndexByte(name, '(')
	if i <= 0 || !strings.HasSuffix(name, ")") || strings.HasPrefix(name, "(") {
		return name, "", false
	}
	return name[:i], strings.Join(strings.Fields(name[i+1:len(name)-1]), ""), true
}

// splitName splits "f", "C.f", "Outer.Inner.f", "(*T).f" or "*T.f" into the
// container to match ("" for any) and the function name.
func splitName(name string) (container, short string, err error) {
	name = strings.TrimSpace(name)
	i := strings.LastIndexByte(name, '.')
	short = name[i+1:]
	if i >= 0 {
		container = strings.Trim(name[:i], "()*")
		if j := strings.LastIndexByte(container, '.'); j >= 0 {
			container = container[j+1:]
		}
		container = strings.Trim(container, "()*")
	}
	if short == "" || (i >= 0 && container == "") {
		return "", "", fmt.Errorf("syntax: invalid function name %q", name)
	}
	return container, short, nil
}

// FindFunction parses src and returns the definition of the function name.
//
// name is "f" (any function, method or constructor called f), or
// "C.f" (f directly in class C — for Go, a method of receiver type C). A
// longer qualification ("Outer.Inner.f") matches on its last container
// only, and the Go forms "(*T).f" and "*T.f" mean "T.f". Either may end
// in Java parameter types, "C.f(int, String)" (Func.Signature): only the
// overload with those types matches.
//
// When several definitions match (Java overloads, a top-level function
// and a method of the same name, redefinitions), the one with the
// smallest Depth wins; among those, one without Container beats a method;
// remaining ties go to the first in source order.
//
// The error wraps [ErrNotFound] if there is no such function.
func FindFunction(lang Lang, src []byte, name string) (Func, error) {
	t, err := Parse(lang, src)
	if err != nil {
		return Func{}, err
	}
	return t.Find(name)
}

// Imports parses code and returns its top-level import statements (see
// [Tree.Imports]).
func Imports(lang Lang, code []byte) ([][]byte, error) {
	t, err := Parse(lang, code)
	if err != nil {
		return nil, err
	}
	return t.Imports(), nil
}

// Extract returns the source of the function name (as for [FindFunction])
// from code, typically a code block written by a model that may also
// contain imports, helpers or a class wrapping the method. The result
// includes decorators/annotations, is dedented (see the package comment for
// how multi-line strings are handled) and ends with a single newline.
//
// code does not need to parse cleanly: tree-sitter recovers from most
// errors, and when error recovery swallowed the definition (stray prose
// before it, for instance) Extract re-parses code from each line that looks
// like the start of the definition; in that fallback a qualified name's
// container is not checked. The error wraps [ErrNotFound] if the function
// is not defined.
func Extract(lang Lang, code []byte, name string) ([]byte, error) {
	t, err := Parse(lang, code)
	if err != nil {
		return nil, err
	}
	return t.Extract(name)
}

// Extract is [Extract] on the source t was parsed from, for a caller that
// also needs the tree (its imports, say) and so parses once.
func (t *Tree) Extract(name string) ([]byte, error) {
	f, err := t.Find(name)
	if err != nil && errors.Is(err, ErrNotFound) && t.HasErrors() {
		if st, sf, ok := salvage(t.lang, t.src, name); ok {
			t, f, err = st, sf, nil
		}
	}
	if err != nil {
		return nil, err
	}
	src := t.src
	// Rebuild the first line as if the definition started its line, so
	// that its indentation counts like that of the following lines.
	text := make([]byte, 0, len(f.Indent)+f.End-f.Start+1)
	text = append(text, f.Indent...)
	text = append(text, src[f.Start:f.End]...)
	base := f.Start - len(f.Indent) // offset in src of text[0]
	out := reindent(text, shiftSpans(t.hard, base, len(text)), shiftSpans(t.soft, base, len(text)), "")
	return append(out, '\n'), nil
}

// defStart matches a line that may start the definition of a function
// named %s (a regexp.QuoteMeta'd name).
var defStart = map[Lang]string{
	Python: `^[ \t]*(?:async[ \t]+)?def[ \t]+%s[ \t]*[(\[]`,
	Go:     `^[ \t]*func[ \t]*(?:\([^)]*\)[ \t]*)?%s[ \t]*[(\[]`,
	Java:   `^[ \t]*[^=;(]*\b%s[ \t]*\(`,
}

// salvage looks for the function name in code whose parse tree does not
// contain it: for each line that looks like the start of its definition
// (preceded by its decorator/annotation lines), it parses code from that
// line on and accepts a definition of name starting on that line.
func salvage(lang Lang, code []byte, name string) (*Tree, Func, bool) {
	name, params, sig := cutParams(name)
	_, short, err := splitName(name)
	if err != nil {
		return nil, Func{}, false
	}
	re, err := regexp.Compile(fmt.Sprintf(defStart[lang], regexp.QuoteMeta(short)))
	if err != nil {
		return nil, Func{}, false
	}
	var starts []int // line start offsets
	for at, rest := 0, code; len(rest) > 0; {
		line, term := nextLine(rest)
		starts = append(starts, at)
		if re.Match(line) {
			i := len(starts) - 1
			for i > 0 && bytes.HasPrefix(bytes.TrimLeft(code[starts[i-1]:starts[i]], " \t"), []byte("@")) {
				i--
			}
			from := starts[i]
			if st, err := Parse(lang, code[from:]); err == nil {
				first := bytes.IndexByte(st.src, '\n')
				for _, f := range st.funcs {
					if f.Name == short && (first < 0 || f.Start < first) && (!sig || strings.Join(f.Params, ",") == params) {
						return st, f, true
					}
				}
			}
		}
		at += len(line) + len(term)
		rest = rest[len(line)+len(term):]
	}
	return nil, Func{}, false
}

// shiftSpans returns the spans of s intersecting [base, base+n), moved by
// -base.
func shiftSpans(s []span, base, n int) []span {
	var out []span
	for _, r := range s {
		if r.end <= base || r.start >= base+n {
			continue
		}
		out = append(out, span{r.start - base, r.end - base})
	}
	return out
}
