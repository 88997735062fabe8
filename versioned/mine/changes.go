package mine

import (
	"go/ast"
	godoc "go/doc"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/exp/apidiff"
)

// The kinds of API change, which are also the funnel's groups.
const (
	kindAdded      = "added"
	kindRemoved    = "removed"
	kindChanged    = "changed"
	kindDeprecated = "deprecated"
)

// kinds orders the change kinds: the funnel's groups, and the precedence
// that gives a problem exercising several changes its group (the first).
var kinds = []string{kindChanged, kindRemoved, kindDeprecated, kindAdded}

// Change is one change of a package's API between two releases.
type Change struct {
	// Kind is "added", "removed", "changed" (an incompatible change of
	// type or signature, as apidiff reports it) or "deprecated" (a
	// "Deprecated:" note that the previous release did not have).
	Kind string `json:"kind"`
	// Package is the package's import path; Name the changed name in it:
	// "F", "T", "T.Method" or "T.Field".
	Package string `json:"package"`
	Name    string `json:"name"`
	// Old and New are the declaration before and after (types.ObjectString
	// relative to the package), empty where there is none.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Message is apidiff's message, or the deprecation note's first line.
	Message string `json:"message"`
	// Replacement is the name a deprecation note tells to use instead, if
	// it names one ("Use X instead").
	Replacement string `json:"replacement,omitempty"`
}

// key is how changes and uses meet: the package path and the name.
func (c Change) key() string { return c.Package + "." + c.Name }

// recvName strips apidiff's receiver notation: "(*T).M" and "T[K].M"
// become "T.M".
var recvName = regexp.MustCompile(`^\(\*([^)\[]+)(?:\[[^)]*\])?\)\.|^([^.\[]+)\[[^\]]*\]\.`)

// diffPackage lists the changes of one package's API from old to new
// (either nil when the package does not exist at that release), sorted
// by kind and name.
func diffPackage(path string, old, new *types.Package) []Change {
	var out []Change
	switch {
	case old == nil && new == nil:
		return nil
	case old == nil:
		for _, n := range new.Scope().Names() {
			if obj := new.Scope().Lookup(n); obj.Exported() {
				out = append(out, Change{Kind: kindAdded, Package: path, Name: n, New: objectString(obj), Message: "added with its package"})
			}
		}
		return out
	case new == nil:
		return nil // a package removed as a whole: no problem framing here
	}
	for _, c := range apidiff.Changes(old, new).Changes {
		name, msg, ok := strings.Cut(c.Message, ": ")
		if !ok || strings.HasPrefix(name, "./") || strings.Contains(name, "/") {
			continue
		}
		name = recvName.ReplaceAllString(name, "$1$2.")
		ch := Change{Package: path, Name: name, Message: msg}
		switch {
		case msg == "added":
			ch.Kind = kindAdded
		case msg == "removed":
			ch.Kind = kindRemoved
		case !c.Compatible:
			ch.Kind = kindChanged
		default:
			continue
		}
		if o := lookup(old, name); o != nil {
			ch.Old = objectString(o)
		}
		if o := lookup(new, name); o != nil {
			ch.New = objectString(o)
		}
		out = append(out, ch)
	}
	return out
}

// lookup finds "F" or "T.M" in a package.
func lookup(p *types.Package, name string) types.Object {
	tn, member, _ := strings.Cut(name, ".")
	obj := p.Scope().Lookup(tn)
	if obj == nil || member == "" {
		return obj
	}
	o, _, _ := types.LookupFieldOrMethod(obj.Type(), true, p, member)
	return o
}

func objectString(obj types.Object) string {
	return types.ObjectString(obj, types.RelativeTo(obj.Pkg()))
}

// deprecations reads the "Deprecated:" notes of a package's exported
// declarations (top-level names and methods): name to note; and the first
// sentence of each one's doc (fields' too: "T.F").
func deprecations(dir string, files []string) (map[string]string, map[string]string) {
	notes, docs := map[string]string{}, map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				n := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					n = recvTypeName(d.Recv.List[0].Type) + "." + n
				}
				addNote(notes, n, d.Doc)
				addDoc(docs, n, d.Doc)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					doc := d.Doc
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Doc != nil {
							doc = s.Doc
						}
						addNote(notes, s.Name.Name, doc)
						addDoc(docs, s.Name.Name, doc)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, f := range st.Fields.List {
								for _, id := range f.Names {
									addDoc(docs, s.Name.Name+"."+id.Name, f.Doc)
								}
							}
						}
					case *ast.ValueSpec:
						if s.Doc != nil {
							doc = s.Doc
						}
						for _, id := range s.Names {
							addNote(notes, id.Name, doc)
							addDoc(docs, id.Name, doc)
						}
					}
				}
			}
		}
	}
	return notes, docs
}

// addDoc records the first sentence of a declaration's doc.
func addDoc(docs map[string]string, name string, doc *ast.CommentGroup) {
	if doc == nil {
		return
	}
	if first := new(godoc.Package).Synopsis(doc.Text()); first != "" {
		docs[name] = first
	}
}

func recvTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

func addNote(notes map[string]string, name string, doc *ast.CommentGroup) {
	if doc == nil || !ast.IsExported(strings.TrimPrefix(name[strings.LastIndex(name, ".")+1:], ".")) {
		return
	}
	// A deprecation note is a paragraph that starts "Deprecated: ".
	text := doc.Text()
	for _, para := range strings.Split(text, "\n\n") {
		para = strings.TrimSpace(para)
		if strings.HasPrefix(para, "Deprecated: ") {
			notes[name] = strings.Join(strings.Fields(para), " ")
			return
		}
	}
}

// replacementRE finds the name a deprecation note points to: "Use X",
// "use [X] instead", "Call X", "See X", "Prefer X".
var replacementRE = regexp.MustCompile(`\b(?:[Uu]se|[Cc]all|[Ss]ee|[Pp]refer)\s+\[?\*?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)`)

func replacement(note string) string {
	m := replacementRE.FindStringSubmatch(note)
	if m == nil {
		return ""
	}
	return strings.TrimSuffix(m[1], ".")
}

// newDeprecations lists the names deprecated at the new release that
// existed at the old one without a note.
func newDeprecations(path string, oldNotes, newNotes map[string]string, old, new *types.Package) []Change {
	if old == nil || new == nil {
		return nil
	}
	var out []Change
	for _, name := range sortedKeys(newNotes) {
		if _, was := oldNotes[name]; was {
			continue
		}
		o := lookup(old, name)
		if o == nil {
			continue
		}
		ch := Change{Kind: kindDeprecated, Package: path, Name: name, Old: objectString(o), Message: newNotes[name], Replacement: replacement(newNotes[name])}
		if n := lookup(new, name); n != nil {
			ch.New = objectString(n)
		}
		out = append(out, ch)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
