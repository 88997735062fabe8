package mutate

import (
	"math/rand/v2"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// UnwrapTry is Table I's try/catch edit, in reverse: an internal error
// handler of F is absent from F′. In Java a try/catch (without resources or
// finally) is removed and the statements of its try block stand
// unprotected, dedented one level; in Go an `if err != nil { … }` check is
// deleted.
var unwrapTry = &Operator{
	Name:  "unwraptry",
	Doc:   "remove an internal error handler: unwrap a Java try/catch, delete a Go if err != nil check",
	Tier:  TierStatement,
	Langs: goJava,
	Sites: trySites,
	Run:   tryRun,
}

func trySites(f *Fragment) []Site {
	lg, err := languageOf(f.Lang)
	if err != nil {
		return nil
	}
	var sites []Site
	f.nodes(func(n, parent *syntax.Node, path []int) {
		if parent == nil || !isStatementList(parent.Type) || !lg.errorHandler(n, f.Src) {
			return
		}
		if b := n.Child("body"); b != nil && len(statements(lg, b)) == 0 {
			return
		}
		sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path})
	})
	return sites
}

func tryRun(s Site, rng *rand.Rand) []Edit {
	lg, err := languageOf(s.Frag.Lang)
	if err != nil {
		return nil
	}
	body := s.node.Child("body")
	if s.node.Type != "try_statement" || body == nil {
		return guardRun(s, rng)
	}
	src := s.Frag.Src
	st := statements(lg, body)
	first, last := st[0], st[len(st)-1]
	text := string(src[first.Start:last.End])
	outer, inner := indentAt(src, s.node.Start), indentAt(src, first.Start)
	if strings.HasPrefix(inner, outer) && inner != outer {
		text = strings.ReplaceAll(text, "\n"+inner, "\n"+outer)
	}
	return []Edit{{s.node.Start, s.node.End, []byte(text)}}
}

// indentAt returns the white space between the start of off's line and
// the first non-blank byte of the line.
func indentAt(src []byte, off int) string {
	ls := off
	for ls > 0 && src[ls-1] != '\n' {
		ls--
	}
	le := ls
	for le < len(src) && (src[le] == ' ' || src[le] == '\t') {
		le++
	}
	return string(src[ls:le])
}

// ChangeFlow is Table I's control-flow modification: an else-if chain
// of F becomes two independent conditionals in F′ (both branches may now
// run), or, in Java, a while loop becomes a do-while loop (its body runs
// at least once).
var changeFlow = &Operator{
	Name:  "changeflow",
	Doc:   "turn `else if` into a separate `if`, or (Java) a while loop into a do-while loop",
	Tier:  TierStructural,
	Langs: goJava,
	Sites: flowSites,
	Run:   flowRun,
}

func flowSites(f *Fragment) []Site {
	var sites []Site
	f.nodes(func(n, parent *syntax.Node, path []int) {
		switch n.Type {
		case "if_statement":
			// Only a statement of a block: splitting an if that is itself
			// an else branch or an unbraced body would change more.
			if alt := n.Child("alternative"); alt != nil && alt.Type == "if_statement" && parent != nil &&
				isStatementList(parent.Type) {
				sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path, Choices: []string{"split"}})
			}
		case "while_statement":
			if b := n.Child("body"); b != nil && b.Type == "block" && n.Child("condition") != nil {
				sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path, Choices: []string{"do"}})
			}
		}
	})
	return sites
}

func flowRun(s Site, _ *rand.Rand) []Edit {
	src := s.Frag.Src
	n := s.node
	switch n.Type {
	case "if_statement":
		cons, alt := n.Child("consequence"), n.Child("alternative")
		if cons == nil || alt == nil {
			return nil
		}
		return []Edit{{cons.End, alt.Start, []byte("\n" + indentAt(src, n.Start))}}
	case "while_statement":
		body, cond := n.Child("body"), n.Child("condition")
		text := "do " + body.Text(src) + " while " + cond.Text(src) + ";"
		return []Edit{{n.Start, n.End, []byte(text)}}
	}
	return nil
}
