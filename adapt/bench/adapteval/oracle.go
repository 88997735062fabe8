package adapteval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
)

// importsBlock is the name of the Oracle block that holds the imports of
// the external dependencies.
const importsBlock = "Imports"

// oracleSource finds the Python file a dependency of the form
// "path/in/repo.py::Name" lives in; ok is false when it is not available.
type oracleSource func(rel string) (f *pyFile, ok bool)

// oracleContext builds the Oracle context of a task as the artifact's
// PromptLoader.generate_dependencies does, from the target file (the
// GitHub file, or the ground-truth context file when that is all there
// is) and, for in-repo dependencies, the repository's other files:
//
//  1. for each distinct class of in_class.fields: the class header line,
//     its class-level assignments and its __init__;
//  2. each in_class.methods "C.m": that method;
//  3. each in_file.variables: its module-level assignments;
//  4. each in_file.functions: the function;
//  5. each in_repo "path::X" or "path::C.x": the class (or variable, or
//     function, or method) from that file;
//  6. the module-level imports of the target file whose module is the top
//     package of an external dependency, in one block named Imports.
//
// Every block's code has the leading white space of its first line cut
// from all its lines. A dependency that cannot be found is left out, and
// reported through miss (the artifact crashes on it).
func oracleContext(target string, deps dependencies, repo func(rel string) (string, bool)) ([]adapt.Snippet, []string, error) {
	f, err := parsePy(target)
	if err != nil {
		return nil, nil, err
	}
	var misses []string
	src := func(rel string) (*pyFile, bool) {
		if repo == nil {
			return nil, false
		}
		s, ok := repo(rel)
		if !ok {
			return nil, false
		}
		pf, err := parsePy(s)
		return pf, err == nil
	}
	snips := oracle(f, deps, src, func(m string) { misses = append(misses, m) })
	return snips, misses, nil
}

func oracle(f *pyFile, deps dependencies, repo oracleSource, miss func(string)) []adapt.Snippet {
	var out []adapt.Snippet
	add := func(name, code string) {
		if code == "" {
			return
		}
		out = append(out, adapt.Snippet{Name: name, Code: removeLeadingSpaces(code)})
	}
	var classes []string
	for _, field := range deps.InClass.Fields {
		c, _, _ := strings.Cut(field, ".")
		if !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
	}
	for _, c := range classes {
		code := f.classDefinition(c)
		if code == "" {
			miss(fmt.Sprintf("in_class field class %s is not defined in the target file", c))
		}
		add(c, code)
	}
	for _, m := range deps.InClass.Methods {
		c, name, ok := strings.Cut(m, ".")
		code, found := "", false
		if ok {
			code, found = f.methodFromClass(c, name)
		}
		if !found {
			miss(fmt.Sprintf("in_class method %s is not defined in the target file", m))
		}
		add(m, code)
	}
	for _, v := range deps.InFile.Variables {
		code := f.variableFromFile(v)
		if code == "" {
			miss(fmt.Sprintf("in_file variable %s is not assigned at module level in the target file", v))
		}
		add(v, code)
	}
	for _, fn := range deps.InFile.Functions {
		code, ok := f.functionFromFile(fn)
		if !ok {
			miss(fmt.Sprintf("in_file function %s is not defined in the target file", fn))
		}
		add(fn, code)
	}
	inRepo := func(dep string, function bool) {
		rel, name, ok := strings.Cut(dep, "::")
		if !ok {
			miss(fmt.Sprintf("in_repo dependency %q is not path::name", dep))
			return
		}
		rf, ok := repo(rel)
		if !ok {
			miss(fmt.Sprintf("in_repo dependency %s: %s is not available", dep, rel))
			return
		}
		code := ""
		class, member, dotted := strings.Cut(name, ".")
		switch {
		case function && dotted:
			code, _ = rf.methodFromClass(class, member)
		case function:
			code, _ = rf.functionFromFile(name)
		case dotted:
			code = rf.classDefinition(class)
		default:
			if code = rf.classDefinition(name); code == "" {
				code = rf.variableFromFile(name)
			}
		}
		if code == "" {
			miss(fmt.Sprintf("in_repo dependency %s is not defined in %s", dep, rel))
		}
		add(dep, code)
	}
	for _, v := range deps.InRepo.Variables {
		inRepo(v, false)
	}
	for _, fn := range deps.InRepo.Functions {
		inRepo(fn, true)
	}
	var pkgs []string
	for _, e := range deps.External {
		p, _, _ := strings.Cut(e, ".")
		if !slices.Contains(pkgs, p) {
			pkgs = append(pkgs, p)
		}
	}
	var imports []string
	for _, p := range pkgs {
		imports = append(imports, f.importsFromFile(p)...)
	}
	if len(imports) > 0 {
		add(importsBlock, strings.Join(imports, "\n"))
	}
	return out
}
