package ctxbug

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// adaptView is an adaptation prompt's parts, obfuscated at class level
// (§4.3): the reused method's parameters and locals as obfuscate
// renames them, and the class's own names (its name, the methods it
// defines but the one to adapt, and the fields it assigns) in the
// method, the class context and the requirement.
type adaptView struct {
	Code, Requirement, Context string
	// Names maps each new name back to the original.
	Names map[string]string
}

// obfuscateAdaptation obfuscates the parts of an adaptation prompt: the
// reused method code (which may hold placeholders), its requirement, and
// ctx, the class context; class is the class's name and method the name
// of the method being adapted, which keeps its name. New names are var_N,
// numbered after the method's own and never clashing with a name already
// in the parts. deobfuscateCode with Names maps a model's answer back.
func obfuscateAdaptation(code, requirement, ctx, class, method string) (*adaptView, error) {
	o, err := obfuscate([]byte(code), requirement)
	if err != nil {
		return nil, err
	}
	v := &adaptView{Code: o.Code, Requirement: o.Requirement, Context: ctx, Names: map[string]string{}}
	for k, n := range o.Names {
		v.Names[k] = n
	}
	codeSrc := []byte(placeholders.Replace(o.Code))
	codeRoot, err := syntax.ParseNodes(syntax.Python, codeSrc)
	if err != nil {
		return nil, fmt.Errorf("ctxbug: %w", err)
	}
	ctxSrc := []byte(ctx)
	ctxRoot, err := syntax.ParseNodes(syntax.Python, ctxSrc)
	if err != nil {
		return nil, fmt.Errorf("ctxbug: %w", err)
	}
	members := classMembers(class, method, parsed{ctxRoot, ctxSrc}, parsed{codeRoot, codeSrc})
	taken := map[string]bool{}
	for _, r := range []*syntax.Node{codeRoot, ctxRoot} {
		src := codeSrc
		if r == ctxRoot {
			src = ctxSrc
		}
		for _, id := range r.Identifiers() {
			taken[id.Text(src)] = true
		}
	}
	for k := range v.Names {
		taken[k] = true
	}
	rename := map[string]string{}
	next := len(o.Names)
	for _, m := range members {
		var nn string
		for {
			nn = fmt.Sprintf("var_%d", next)
			next++
			if !taken[nn] && !strings.Contains(requirement, nn) {
				break
			}
		}
		rename[m] = nn
		v.Names[nn] = m
	}
	out, err := applyHoles(codeSrc, classHoles(codeRoot, codeSrc, class, rename))
	if err != nil {
		return nil, fmt.Errorf("ctxbug: obfuscate: %w", err)
	}
	v.Code = unplaceholders.Replace(string(out))
	out, err = applyHoles(ctxSrc, classHoles(ctxRoot, ctxSrc, class, rename))
	if err != nil {
		return nil, fmt.Errorf("ctxbug: obfuscate: %w", err)
	}
	v.Context = string(out)
	v.Requirement = renameInRequirement(v.Requirement, class, members, rename)
	return v, nil
}

// parsed is a parsed source and its text.
type parsed struct {
	root *syntax.Node
	src  []byte
}

// classMembers returns the class's own names but method's: the class name,
// then the methods it defines and the fields it assigns, by first
// appearance in parts, in order.
func classMembers(class, method string, parts ...parsed) []string {
	var members []string
	add := func(n string) {
		if n != "" && n != method && !strings.HasPrefix(n, "__") && !slices.Contains(members, n) {
			members = append(members, n)
		}
	}
	if class != "" {
		add(class)
	}
	for _, r := range parts {
		r.root.Walk(func(n *syntax.Node) bool {
			switch n.Type {
			case "function_definition":
				if nm := n.Child("name"); nm != nil && inClass(r.root, n) {
					add(nm.Text(r.src))
				}
			case "assignment", "augmented_assignment":
				if l := n.Child("left"); l != nil {
					l.Walk(func(a *syntax.Node) bool {
						if a.Type == "attribute" && selfLike(a.Child("object"), r.src, class) {
							if at := a.Child("attribute"); at != nil {
								add(at.Text(r.src))
							}
						}
						return true
					})
				}
			}
			return true
		})
	}
	return members
}

// renameInRequirement renames the class's members in a requirement: the
// class name as a word, the others where they are attributes of self, cls
// or the class, or called.
func renameInRequirement(req, class string, members []string, rename map[string]string) string {
	for _, m := range members {
		nn := rename[m]
		q := regexp.QuoteMeta(m)
		if m == class {
			req = regexp.MustCompile(`\b`+q+`\b`).ReplaceAllString(req, nn)
			continue
		}
		req = regexp.MustCompile(`\b(self|cls|`+regexp.QuoteMeta(class)+`|`+regexp.QuoteMeta(rename[class])+`)\.`+q+`\b`).ReplaceAllString(req, "${1}."+nn)
		req = regexp.MustCompile(`\b`+q+`\(`).ReplaceAllString(req, nn+"(")
	}
	return req
}

// inClass reports whether function definition fn is a method: its
// nearest enclosing definition is a class.
func inClass(root, fn *syntax.Node) bool {
	var path []*syntax.Node
	var find func(n *syntax.Node) bool
	find = func(n *syntax.Node) bool {
		if n == fn {
			return true
		}
		for _, c := range n.Children {
			if find(c) {
				path = append(path, n)
				return true
			}
		}
		return false
	}
	if !find(root) {
		return false
	}
	for _, p := range path { // innermost first
		switch p.Type {
		case "class_definition":
			return true
		case "function_definition", "lambda":
			return false
		}
	}
	return false
}

// selfLike reports whether n is self, cls or the class's name.
func selfLike(n *syntax.Node, src []byte, class string) bool {
	if n == nil || n.Type != "identifier" {
		return false
	}
	t := n.Text(src)
	return t == "self" || t == "cls" || (class != "" && t == class)
}

// classHoles renames the class's own names in root: the class name
// wherever it is an identifier, and members where they are defined (def,
// class) or used as attributes of self, cls or the class.
func classHoles(root *syntax.Node, src []byte, class string, rename map[string]string) []Hole {
	var hs []Hole
	put := func(n *syntax.Node) {
		if nn, ok := rename[n.Text(src)]; ok {
			hs = append(hs, Hole{Start: n.Start, End: n.End, Node: n.Type, Placeholder: nn})
		}
	}
	root.Walk(func(n *syntax.Node) bool {
		switch n.Type {
		case "attribute":
			o := n.Child("object")
			if selfLike(o, src, class) {
				if o.Text(src) == class {
					put(o)
				}
				if at := n.Child("attribute"); at != nil {
					put(at)
				}
				return false
			}
		case "function_definition", "class_definition":
			if nm := n.Child("name"); nm != nil && (n.Type == "class_definition" || inClass(root, n)) {
				put(nm)
			}
		case "identifier":
			if n.Field != "attribute" && class != "" && n.Text(src) == class {
				put(n)
			}
		}
		return true
	})
	slices.SortFunc(hs, func(a, b Hole) int { return a.Start - b.Start })
	return slices.CompactFunc(hs, func(a, b Hole) bool { return a.Start == b.Start })
}
