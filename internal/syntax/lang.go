//go:build cgo

package syntax

import (
	"fmt"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/python"
)

// Lang identifies a programming language supported by the package. Its
// value is the lower-case language name, so it prints and serialises
// naturally; values other than [Python], [Go] and [Java] are rejected by
// every function that takes a Lang.
type Lang string

// The supported languages.
const (
	Python Lang = "python"
	Go     Lang = "go"
	Java   Lang = "java"
)

// LangByName returns the language called name ("python", "go" or "java",
// case-insensitive, surrounding white space ignored).
func LangByName(name string) (Lang, error) {
	l := Lang(strings.ToLower(strings.TrimSpace(name)))
	if _, ok := grammars[l]; ok {
		return l, nil
	}
	return "", fmt.Errorf("syntax: unknown language %q (want python, go or java)", name)
}

// grammar holds the per-language tree-sitter data.
type grammar struct {
	lang    *sitter.Language
	query   *sitter.Query // finds definitions, literals and imports; read-only, shared
	kinds   []captureKind // capture index -> kind
	parsers sync.Pool     // of *sitter.Parser; a parser is not goroutine-safe
}

// captureKind is what a capture of a grammar's query stands for.
type captureKind uint8

const (
	capFunc      captureKind = iota // a function, method or constructor definition
	capClass                        // a named class-like definition
	capAnon                         // an anonymous class body
	capDecorated                    // a Python decorated function definition
	capString                       // a string literal (kept verbatim when multi-line)
	capComment                      // a possibly multi-line comment
	capImport                       // a top-level import statement
)

var captureKinds = map[string]captureKind{
	"func": capFunc, "class": capClass, "anon": capAnon, "decorated": capDecorated,
	"str": capString, "comment": capComment, "import": capImport,
}

// queries select, per language, the nodes Parse needs. Running a query in
// C is much cheaper than visiting every node through cgo.
var queries = map[Lang]string{
	Python: `
(function_definition) @func
(class_definition) @class
(decorated_definition definition: (function_definition)) @decorated
(string) @str
(module [(import_statement) (import_from_statement) (future_import_statement)] @import)
`,
	Go: `
[(function_declaration) (method_declaration)] @func
[(raw_string_literal) (interpreted_string_literal)] @str
(comment) @comment
(source_file (import_declaration) @import)
`,
	Java: `
[(class_declaration) (interface_declaration) (enum_declaration)
 (record_declaration) (annotation_type_declaration)] @class
(object_creation_expression (class_body) @anon)
(enum_constant (class_body) @anon)
[(method_declaration) (constructor_declaration) (compact_constructor_declaration)] @func
(string_literal) @str
(block_comment) @comment
(program (import_declaration) @import)
`,
}

var grammars = map[Lang]*grammar{
	Python: newGrammar(Python, python.GetLanguage()),
	Go:     newGrammar(Go, golang.GetLanguage()),
	Java:   newGrammar(Java, java.GetLanguage()),
}

func newGrammar(name Lang, l *sitter.Language) *grammar {
	q, err := sitter.NewQuery([]byte(queries[name]), l)
	if err != nil {
		panic(fmt.Sprintf("syntax: bad %s query: %v", name, err))
	}
	g := &grammar{lang: l, query: q}
	for i := uint32(0); i < q.CaptureCount(); i++ {
		k, ok := captureKinds[q.CaptureNameForId(i)]
		if !ok {
			panic(fmt.Sprintf("syntax: unknown capture @%s in %s query", q.CaptureNameForId(i), name))
		}
		g.kinds = append(g.kinds, k)
	}
	g.parsers.New = func() any {
		// go-tree-sitter sets a finalizer that deletes the C parser, so
		// parsers dropped by the pool are freed by the garbage collector.
		p := sitter.NewParser()
		p.SetLanguage(l)
		return p
	}
	return g
}

// grammarOf returns the grammar of l or an error if l is not supported.
func grammarOf(l Lang) (*grammar, error) {
	if g, ok := grammars[l]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("syntax: unsupported language %q (want python, go or java)", string(l))
}
