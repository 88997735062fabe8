package measure

import (
	"math"
	"regexp"
	"strings"
)

// The token metrics (R1, R11, R13) split text the way NLTK's
// NLTKWordTokenizer (the Treebank-style word tokenizer behind
// nltk.word_tokenize) does: a fixed sequence of regular-expression
// rewrites that put spaces around punctuation, then a split on white
// space. The two rules written with look-ahead in NLTK are implemented by
// hand (splitQuoteLetter, and `wanna` followed by white space). See the
// package documentation for where this differs from word_tokenize.

type rewrite struct {
	re  *regexp.Regexp
	rep string
}

func rw(expr, rep string) rewrite { return rewrite{regexp.MustCompile(expr), rep} }

var (
	startingQuotes = []rewrite{
		rw("([«“‘„]|[`]+)", " $1 "),
		rw(`^"`, "``"),
		rw("(``)", " $1 "),
		rw(`([ (\[{<])("|'{2})`, "$1 `` "),
	}
	punctuation = []rewrite{
		rw(`([^.])(\.)([\])}>"'»”’ ]*)\s*$`, "$1 $2 $3 "),
		rw(`([:,])([^\d])`, " $1 $2"),
		rw(`([:,])$`, " $1 "),
		rw(`\.{2,}`, " $0 "),
		rw(`[;@#$%&]`, " $0 "),
		rw(`([^.])(\.)([\])}>"']*)\s*$`, "$1 $2$3 "),
		rw(`[?!]`, " $0 "),
		rw(`([^'])' `, "$1 ' "),
		rw(`[*]`, " $0 "),
	}
	parensBrackets = rw(`[\][(){}<>]`, " $0 ")
	doubleDashes   = rw(`--`, " -- ")
	endingQuotes   = []rewrite{
		rw("([»”’])", " $1 "),
		rw(`''`, " '' "),
		rw(`"`, " '' "),
		rw(`([^' ])('[sS]|'[mM]|'[dD]|') `, "$1 $2 "),
		rw(`([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) `, "$1 $2 "),
	}
	contractions = []rewrite{
		rw(`(?i)\b(can)(not)\b`, " $1 $2 "),
		rw(`(?i)\b(d)('ye)\b`, " $1 $2 "),
		rw(`(?i)\b(gim)(me)\b`, " $1 $2 "),
		rw(`(?i)\b(gon)(na)\b`, " $1 $2 "),
		rw(`(?i)\b(got)(ta)\b`, " $1 $2 "),
		rw(`(?i)\b(lem)(me)\b`, " $1 $2 "),
		rw(`(?i)\b(more)('n)\b`, " $1 $2 "),
		rw(`(?i)\b(wan)(na)(\s)`, " $1 $2 $3"), // NLTK: (?=\s)
		rw(`(?i) ('t)(is)\b`, " $1 $2 "),
		rw(`(?i) ('t)(was)\b`, " $1 $2 "),
	}
)

// tokenize splits s into NLTKWordTokenizer tokens.
func tokenize(s string) []string {
	for _, r := range startingQuotes {
		s = r.re.ReplaceAllString(s, r.rep)
	}
	s = splitQuoteLetter(s)
	for _, r := range punctuation {
		s = r.re.ReplaceAllString(s, r.rep)
	}
	s = parensBrackets.re.ReplaceAllString(s, parensBrackets.rep)
	s = doubleDashes.re.ReplaceAllString(s, doubleDashes.rep)
	s = " " + s + " "
	for _, r := range endingQuotes {
		s = r.re.ReplaceAllString(s, r.rep)
	}
	for _, r := range contractions {
		s = r.re.ReplaceAllString(s, r.rep)
	}
	return strings.Fields(s)
}

// splitQuoteLetter is NLTK's (?i)(')(?!re|ve|ll|m|t|s|d|n)(\w)\b -> "' x":
// a quote followed by a one-character word other than m, t, s, d or n.
func splitQuoteLetter(s string) string {
	if !strings.Contains(s, "'") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\'' || !isWord(s[i+1]) || (i+2 < len(s) && isWord(s[i+2])) {
			continue
		}
		switch s[i+1] | 0x20 {
		case 'm', 't', 's', 'd', 'n':
			continue
		}
		b.WriteString(s[last : i+1])
		b.WriteByte(' ')
		last = i + 1
		i++ // the match consumed the letter
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isWord(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// tokens holds the token metrics of a source file.
type tokens struct {
	count   int     // R1
	maxLine int     // R11
	entropy float64 // R13
}

// tokenStats tokenizes the whole source (R1, R13) and each line of it
// (R11; lines are split at '\n' only, as the artifact's split('\n')).
func tokenStats(src []byte) tokens {
	text := string(src)
	all := tokenize(text)
	t := tokens{count: len(all), entropy: entropy(all)}
	for line := range strings.SplitSeq(text, "\n") {
		t.maxLine = max(t.maxLine, len(tokenize(line)))
	}
	return t
}

// entropy is the Shannon entropy (bits) of the unigram distribution of
// toks, summed in order of first occurrence like Python's Counter.
func entropy(toks []string) float64 {
	if len(toks) == 0 {
		return 0
	}
	counts := map[string]int{}
	var order []string
	for _, t := range toks {
		if counts[t] == 0 {
			order = append(order, t)
		}
		counts[t]++
	}
	h, n := 0.0, float64(len(toks))
	for _, t := range order {
		p := float64(counts[t]) / n
		h -= p * math.Log2(p)
	}
	return h
}
