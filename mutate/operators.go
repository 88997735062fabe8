package mutate

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Operators lists the operators of Table I, tier by tier; callers may filter
// (by Name: "renamevar", "changeflow", …) or append. ModifyLogic and
// RemoveGuard, the examples' own, are also variables; the others are
// reached here, each documented in its Doc.
var Operators = []*Operator{
	renameVar, updateConst, dropReceiver,
	RemoveGuard, changeType, unwrapTry,
	changeFlow, substituteAPI, ModifyLogic,
}

var goJava = []Lang{Go, Java}

// renameVar is Table I's variable rename: every use of one parameter or
// local variable inside the fragment is renamed, either to another name
// the fragment uses (a conflict) or to a fresh name (an unresolved
// reference).
var renameVar = &Operator{
	Name:  "renamevar",
	Doc:   "rename a parameter or local variable throughout the fragment\n\nThe new name is another name of the fragment or a common snippet name such as \"value\".",
	Tier:  TierIdentifier,
	Langs: goJava,
	Sites: renameSites,
	Run:   renameRun,
}

var freshNames = []string{"value", "result", "item", "tmp", "data", "obj", "input", "other"}

func renameSites(f *Fragment) []Site {
	lg, err := languageOf(f.Lang)
	if err != nil || f.fn == nil {
		return nil
	}
	decl := map[string]bool{}
	f.fn.Walk(func(n *syntax.Node) bool {
		for _, d := range lg.declared(n) {
			decl[d.Text(f.Src)] = true
		}
		return true
	})
	used := map[string]bool{}
	var sites []Site
	f.nodes(func(n, parent *syntax.Node, path []int) {
		if !isVarUse(n, parent) {
			return
		}
		name := n.Text(f.Src)
		if !decl[name] || used[name] || name == "_" {
			return
		}
		used[name] = true
		sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path})
	})
	taken := map[string]bool{}
	for _, id := range f.Identifiers {
		taken[id] = true
	}
	for i := range sites {
		name := sites[i].node.Text(f.Src)
		for _, s := range sites {
			if o := s.node.Text(f.Src); o != name {
				sites[i].Choices = append(sites[i].Choices, o)
			}
		}
		for _, w := range freshNames {
			if !taken[w] && !lg.reserved(w) {
				sites[i].Choices = append(sites[i].Choices, w)
			}
		}
	}
	return sites
}

// isVarUse reports whether n is an identifier naming a variable, not a
// field or method name of a selector.
func isVarUse(n, parent *syntax.Node) bool {
	if n.Type != "identifier" || parent == nil {
		return false
	}
	switch parent.Type {
	case "field_access":
		return n.Field != "field"
	case "method_invocation":
		return n.Field != "name"
	case "method_reference", "labeled_statement", "label_name", "break_statement", "continue_statement":
		return false
	}
	return true
}

func renameRun(s Site, rng *rand.Rand) []Edit {
	if len(s.Choices) == 0 {
		return nil
	}
	f := s.Frag
	old := s.node.Text(f.Src)
	nw := []byte(pick(s.Choices, rng))
	var edits []Edit
	f.nodes(func(n, parent *syntax.Node, _ []int) {
		if isVarUse(n, parent) && n.Text(f.Src) == old {
			edits = append(edits, Edit{n.Start, n.End, nw})
		}
	})
	return edits
}

func pick(xs []string, rng *rand.Rand) string {
	if rng == nil {
		return xs[0]
	}
	return xs[rng.IntN(len(xs))]
}

// updateConst is Table I's constant update: one integer, floating-point,
// string or boolean literal gets a different value.
var updateConst = &Operator{
	Name:  "updateconst",
	Doc:   "change the value of a literal\n\nIntegers and floats move by one, strings lose their last character or gain one, booleans flip.",
	Tier:  TierIdentifier,
	Langs: goJava,
	Sites: constSites,
	Run:   replaceRun,
}

var (
	decimalRE = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	floatRE   = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)
)

func constSites(f *Fragment) []Site {
	lg, err := languageOf(f.Lang)
	if err != nil {
		return nil
	}
	var sites []Site
	f.nodes(func(n, _ *syntax.Node, path []int) {
		text := n.Text(f.Src)
		if ch := constChoices(lg.literal(n.Type), text); len(ch) > 0 {
			sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path, Choices: keepVerbs(text, ch)})
		}
	})
	return sites
}

func constChoices(kind, text string) []string {
	switch kind {
	case "int":
		if !decimalRE.MatchString(text) {
			return nil
		}
		v, err := strconv.ParseInt(text, 10, 32)
		if err != nil {
			return nil
		}
		if v == 0 {
			return []string{"1"}
		}
		return []string{strconv.FormatInt(v+1, 10), strconv.FormatInt(v-1, 10)}
	case "float":
		if !floatRE.MatchString(text) {
			return nil
		}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil
		}
		s := strconv.FormatFloat(v+1, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return []string{s}
	case "string":
		if len(text) < 2 || text[0] != '"' || text[len(text)-1] != '"' || strings.HasPrefix(text, `"""`) ||
			strings.ContainsAny(text, "\\\n") || !utf8.ValidString(text) {
			return nil
		}
		body := text[1 : len(text)-1]
		if body == "" {
			return []string{`"x"`}
		}
		_, sz := utf8.DecodeLastRuneInString(body)
		return []string{`"` + body[:len(body)-sz] + `"`, `"` + body + `_"`}
	case "bool":
		if text == "true" {
			return []string{"false"}
		}
		return []string{"true"}
	}
	return nil
}

// printfRE matches a printf verb, flags, width and precision included,
// and "%" at the end of the text (no verb).
var printfRE = regexp.MustCompile(`%[-+# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*)?)?(?:\[\d+\])?(?:[a-zA-Z%]|$)`)

// printfVerbs lists the printf verbs of s.
func printfVerbs(s string) []string { return printfRE.FindAllString(s, -1) }

// keepVerbs returns the choices for a literal's text that keep its printf
// verbs: "too large: %" for "too large: %d" is no format go vet (run by go
// test) accepts, nor a String.format that runs. A site left with none
// stays (so that the sites a seed draws stay the same) and gives no edit.
func keepVerbs(text string, choices []string) []string {
	var out []string
	for _, c := range choices {
		if slices.Equal(printfVerbs(c), printfVerbs(text)) {
			out = append(out, c)
		}
	}
	return out
}

// replaceRun replaces the site's node with one of its choices.
func replaceRun(s Site, rng *rand.Rand) []Edit {
	if len(s.Choices) == 0 {
		return nil
	}
	return []Edit{{s.node.Start, s.node.End, []byte(pick(s.Choices, rng))}}
}

// dropReceiver is Table I's identifier resolution: an explicit receiver
// ("this." in Java, the method receiver "r." in Go) is removed, leaving a
// bare name that may no longer resolve.
var dropReceiver = &Operator{
	Name:  "dropreceiver",
	Doc:   "remove an explicit receiver (this.x, r.x), leaving an unresolved identifier",
	Tier:  TierIdentifier,
	Langs: goJava,
	Sites: receiverSites,
	Run:   deleteRun,
}

func receiverSites(f *Fragment) []Site {
	lg, err := languageOf(f.Lang)
	if err != nil {
		return nil
	}
	var sites []Site
	f.nodes(func(n, _ *syntax.Node, path []int) {
		if _, _, ok := lg.receiverRef(n, f.fn, f.Src); ok {
			sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path})
		}
	})
	return sites
}

func deleteRun(s Site, _ *rand.Rand) []Edit {
	lg, err := languageOf(s.Frag.Lang)
	if err != nil {
		return nil
	}
	start, end, ok := lg.receiverRef(s.node, s.Frag.fn, s.Frag.Src)
	if !ok {
		return nil
	}
	return []Edit{{start, end, nil}}
}

// RemoveGuard is Table I's guard insertion, in reverse: a defensive check
// of F (an if without else whose body only returns, throws, breaks or
// continues) is absent from F′.
var RemoveGuard = &Operator{
	Name:  "removeguard",
	Doc:   "remove a guard clause (an if that only returns, throws, breaks or continues)",
	Tier:  TierStatement,
	Langs: goJava,
	Sites: guardSites,
	Run:   guardRun,
}

func isExit(kind string) bool {
	switch kind {
	case "return_statement", "throw_statement", "break_statement", "continue_statement":
		return true
	}
	return false
}

func guardSites(f *Fragment) []Site {
	lg, err := languageOf(f.Lang)
	if err != nil {
		return nil
	}
	var sites []Site
	f.nodes(func(n, parent *syntax.Node, path []int) {
		if n.Type != "if_statement" || n.Child("alternative") != nil || parent == nil {
			return
		}
		// Only statements of a block, so that deleting them leaves a
		// statement list (not an else-if or an unbraced body).
		if !isStatementList(parent.Type) {
			return
		}
		c := n.Child("consequence")
		if c == nil {
			return
		}
		if isExit(c.Type) {
			sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path})
			return
		}
		if st := statements(lg, c); len(st) == 1 && isExit(st[0].Type) {
			sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path})
		}
	})
	return sites
}

// guardRun deletes the statement with its indentation and line break when
// it sits alone on its lines, and just the statement otherwise. In Go,
// which rejects a local variable that is declared and not used, the local
// variables only the statement read (most often err) are kept alive: the
// statement becomes `_ = err` instead, so that F′ compiles. A Go statement
// whose deletion would leave an import unused gives no edit. Both are
// decided with go/types (keepAlive).
func guardRun(s Site, _ *rand.Rand) []Edit {
	src := s.Frag.Src
	start, end := s.node.Start, s.node.End
	ls := start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	le := end
	for le < len(src) && (src[le] == ' ' || src[le] == '\t') {
		le++
	}
	if (ls == 0 || src[ls-1] == '\n') && le < len(src) && src[le] == '\n' {
		start, end = ls, le+1
	}
	if s.Frag.Lang == Go {
		keep, ok := keepAlive(src, start, end)
		if !ok {
			return nil
		}
		if keep != "" {
			return []Edit{{s.node.Start, s.node.End, []byte(keep)}}
		}
	}
	return []Edit{{start, end, nil}}
}

// changeType is Table I's type change: a numeric type in the fragment (a
// local declaration, a conversion or a cast) becomes another width or
// kind.
var changeType = &Operator{
	Name:  "changetype",
	Doc:   "replace a numeric type with a non-equivalent one (int to long, float64 to int32, …)",
	Tier:  TierStatement,
	Langs: goJava,
	Sites: typeSites,
	Run:   replaceRun,
}

func typeSites(f *Fragment) []Site {
	lg, err := languageOf(f.Lang)
	if err != nil {
		return nil
	}
	var sites []Site
	f.nodes(func(n, parent *syntax.Node, path []int) {
		if ch := lg.numericType(n, f.Src); len(ch) > 0 {
			// A type switch's case lists types, not a declaration, a
			// conversion or a cast: another one may duplicate a case.
			// The site stays (so that the sites a seed draws stay the
			// same), with no choice: it gives no edit.
			if parent != nil && parent.Type == "type_case" {
				ch = nil
			}
			sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path, Choices: ch})
		}
	})
	return sites
}

// substituteAPI is Table I's API substitution: a library call is replaced
// by a non-equivalent one with the same signature (startsWith/endsWith,
// strings.Index/LastIndex, Math.max/min, …).
var substituteAPI = &Operator{
	Name:  "substituteapi",
	Doc:   "replace a library call with a non-equivalent alternative of the same signature",
	Tier:  TierStructural,
	Langs: goJava,
	Sites: apiSites,
	Run:   replaceRun,
}

func apiSites(f *Fragment) []Site {
	lg, err := languageOf(f.Lang)
	if err != nil {
		return nil
	}
	var sites []Site
	f.nodes(func(n, _ *syntax.Node, path []int) {
		if nm, sub := lg.apiCall(n, f.Src); nm != nil {
			p := append(path[:len(path):len(path)], childIndex(n, nm)...)
			sites = append(sites, Site{Frag: f, Kind: nm.Type, Start: nm.Start, End: nm.End, node: nm, Path: p, Choices: []string{sub}})
		}
	})
	return sites
}

// childIndex returns the path from n down to d.
func childIndex(n, d *syntax.Node) []int {
	for i, c := range n.Children {
		if c == d {
			return []int{i}
		}
		if c.Start <= d.Start && d.End <= c.End {
			if p := childIndex(c, d); p != nil {
				return append([]int{i}, p...)
			}
		}
	}
	return nil
}

// ModifyLogic is Table I's logic customization: one relational, equality,
// logical or additive operator is replaced.
var ModifyLogic = &Operator{
	Name:  "modifylogic",
	Doc:   "replace a binary operator (< with <=, == with !=, && with ||, + with -, …)",
	Tier:  TierStructural,
	Langs: goJava,
	Sites: logicSites,
	Run:   logicRun,
}

var logicSwap = map[string]string{
	"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==",
	"&&": "||", "||": "&&", "+": "-", "-": "+",
}

func logicSites(f *Fragment) []Site {
	var sites []Site
	f.nodes(func(n, _ *syntax.Node, path []int) {
		if n.Type != "binary_expression" {
			return
		}
		if op := n.Child("operator"); op != nil {
			if sub, ok := logicSwap[op.Text(f.Src)]; ok {
				ch := []string{sub}
				// A string concatenation has no "-": the site gives no
				// edit. (What only types tell is left to the compile
				// step, or in Go to the type check of the sites,
				// selectSites.)
				if sub == "-" && (isStringLit(n.Child("left")) || isStringLit(n.Child("right"))) {
					ch = nil
				}
				sites = append(sites, Site{Frag: f, Kind: n.Type, Start: n.Start, End: n.End, node: n, Path: path, Choices: ch})
			}
		}
	})
	return sites
}

// isStringLit reports whether n is a string literal (Go or Java).
func isStringLit(n *syntax.Node) bool {
	if n == nil {
		return false
	}
	switch n.Type {
	case "interpreted_string_literal", "raw_string_literal", "string_literal", "text_block":
		return true
	}
	return false
}

func logicRun(s Site, rng *rand.Rand) []Edit {
	op := s.node.Child("operator")
	if op == nil || len(s.Choices) == 0 {
		return nil
	}
	return []Edit{{op.Start, op.End, []byte(pick(s.Choices, rng))}}
}

// isStatementList reports whether a node of this kind holds a list of
// statements, so that one of them can be deleted or split.
func isStatementList(kind string) bool {
	switch kind {
	case "block", "statement_list", "constructor_body", "switch_block_statement_group",
		"expression_case", "type_case", "default_case", "communication_case":
		return true
	}
	return false
}
