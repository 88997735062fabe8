package measure

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// refTokenize is NLTKWordTokenizer written as NLTK writes it: its regular
// expressions applied with ReplaceAll in NLTK's order (the two
// look-ahead rules by other means). The hand-written passes of tokenize
// must agree with it on every input.
func refTokenize(s string) []string {
	type rw struct {
		re  *regexp.Regexp
		rep string
	}
	r := func(expr, rep string) rw { return rw{regexp.MustCompile(expr), rep} }
	apply := func(s string, rules ...rw) string {
		for _, x := range rules {
			s = x.re.ReplaceAllString(s, x.rep)
		}
		return s
	}
	s = apply(s,
		r("([«“‘„]|[`]+)", " $1 "),
		r(`^"`, "``"),
		r("(``)", " $1 "),
		r(`([ (\[{<])("|'{2})`, "$1 `` "),
	)
	// (?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b: the look-ahead as a
	// replacement function over the matches of ('\w)\b.
	s = regexp.MustCompile(`'[A-Za-z0-9_]\b`).ReplaceAllStringFunc(s, func(m string) string {
		if strings.ContainsRune("mtsdnMTSDN", rune(m[1])) {
			return m
		}
		return "' " + m[1:]
	})
	s = apply(s,
		r(`([^.])(\.)([\])}>"'»”’ ]*)[\t\n\v\f\r ]*$`, "$1 $2 $3 "),
		r(`([:,])([^\d])`, " $1 $2"),
		r(`([:,])$`, " $1 "),
		r(`\.{2,}`, " $0 "),
		r(`[;@#$%&]`, " $0 "),
		r(`([^.])(\.)([\])}>"']*)[\t\n\v\f\r ]*$`, "$1 $2$3 "),
		r(`[?!]`, " $0 "),
		r(`([^'])' `, "$1 ' "),
		r(`[*]`, " $0 "),
		r(`[\][(){}<>]`, " $0 "),
		r(`--`, " -- "),
	)
	s = " " + s + " "
	s = apply(s,
		r("([»”’])", " $1 "),
		r(`''`, " '' "),
		r(`"`, " '' "),
		r(`([^' ])('[sS]|'[mM]|'[dD]|') `, "$1 $2 "),
		r(`([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) `, "$1 $2 "),
		r(`(?i)\b(can)(not)\b`, " $1 $2 "),
		r(`(?i)\b(d)('ye)\b`, " $1 $2 "),
		r(`(?i)\b(gim)(me)\b`, " $1 $2 "),
		r(`(?i)\b(gon)(na)\b`, " $1 $2 "),
		r(`(?i)\b(got)(ta)\b`, " $1 $2 "),
		r(`(?i)\b(lem)(me)\b`, " $1 $2 "),
		r(`(?i)\b(more)('n)\b`, " $1 $2 "),
		r(`(?i)\b(wan)(na)(\s)`, " $1 $2 $3"),
		r(`(?i) ('t)(is)\b`, " $1 $2 "),
		r(`(?i) ('t)(was)\b`, " $1 $2 "),
	)
	var out []string
	fields([]byte(s), func(t []byte) { out = append(out, string(t)) })
	return out
}

var tokenSeeds = []string{
	"", " ", "x = foo(a, b)", `print("hi")`, `s = 'it' + 'x'`, "a,,", "x:", "x:\n", "end.)  ", "e.g... ok",
	"a -- b---c", "x'  'y", "it's 'x' rock'n'roll ''quoted''", "Gimme more'n   'twas", "I wanna\tgo",
	"«q» “r” ‘s’ ```code```", `"""Doc. More."""`, "x = a.b.", "a.\n", "'a' 'b'", "don't can't won't",
	"x = {'k': [1, 2], \"v\": (3,)}  # done.", "a'' b", "((\"x", "é'a b'é ", "''''", "x.\v", "1,2, 3:4:",
}

func TestTokenizeMatchesRegexes(t *testing.T) {
	check := func(name, s string) {
		assert.Equal(t, refTokenize(s), tokenize(s), "%s: tokenize(%q) differs from the regular expressions", name, s)
	}
	for _, s := range tokenSeeds {
		check("seed", s)
	}
	for _, p := range fixtures(t) {
		check(p.ID, string(p.Src))
		for _, line := range strings.Split(string(p.Src), "\n") {
			check(p.ID, line)
		}
	}
}

// FuzzTokenize checks the hand-written passes against the regular
// expressions. (go test -fuzz stalls on cgo packages on this machine;
// the seed corpus runs as a normal test.)
func FuzzTokenize(f *testing.F) {
	for _, s := range tokenSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, refTokenize(s), tokenize(s), "tokenize(%q) differs from the regular expressions", s)
	})
}
