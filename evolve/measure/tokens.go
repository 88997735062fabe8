package measure

import (
	"math"
	"regexp"
	"unicode"
	"unicode/utf8"
)

// The token metrics (R1, R11, R13) split text the way NLTK 3.8's
// NLTKWordTokenizer (the Treebank-style word tokenizer behind
// nltk.word_tokenize) does: a fixed sequence of rewrites that put spaces
// around punctuation and quotes, then a split on white space. Each rewrite
// here is a hand-written byte scan with the semantics of NLTK's regular
// expression (leftmost, non-overlapping matches, as re.sub), applied in
// NLTK's order; the rare contraction rules (cannot, gonna, …) keep
// regular expressions behind a cheap test. Character classes are ASCII
// (Python's \w, \d and \s also match other Unicode letters, digits and
// spaces). See the package documentation for how this differs from
// word_tokenize itself.

// tokenizer holds two buffers that the rewrites alternate between.
type tokenizer struct{ a, b []byte }

// pass runs one rewrite from z.a into z.b and swaps the buffers.
func (z *tokenizer) pass(f func(dst, src []byte) []byte) {
	z.b = f(z.b[:0], z.a)
	z.a, z.b = z.b, z.a
}

// rewrite returns text with NLTK's spaces inserted (and quotes
// converted); the result aliases z's buffers.
func (z *tokenizer) rewrite(text []byte) []byte {
	z.a = append(z.a[:0], text...)
	if hasByte(z.a, func(c byte) bool { return c == '`' || c >= 0x80 }) {
		z.pass(spaceOpeningQuotes)
	}
	if len(z.a) > 0 && z.a[0] == '"' {
		z.pass(func(dst, src []byte) []byte { return append(append(dst, "``"...), src[1:]...) })
	}
	if hasByte(z.a, func(c byte) bool { return c == '`' }) {
		z.pass(spaceDoubleBacktick)
	}
	if hasByte(z.a, func(c byte) bool { return c == '"' || c == '\'' }) {
		z.pass(openingQuoteAfterSpace)
		z.pass(splitQuoteLetter)
	}
	if hasByte(z.a, func(c byte) bool { return c == '.' }) {
		z.pass(func(dst, src []byte) []byte { return finalPeriod(dst, src, closers1, true) })
	}
	if hasByte(z.a, func(c byte) bool { return c == ':' || c == ',' }) {
		z.pass(splitColonComma)
	}
	if hasByte(z.a, func(c byte) bool { return c == '.' }) {
		z.pass(spaceEllipsis)
	}
	z.pass(func(dst, src []byte) []byte { return spaceAround(dst, src, ";@#$%&") })
	if hasByte(z.a, func(c byte) bool { return c == '.' }) {
		z.pass(func(dst, src []byte) []byte { return finalPeriod(dst, src, closers2, false) })
	}
	z.pass(func(dst, src []byte) []byte { return spaceAround(dst, src, "?!") })
	if hasByte(z.a, func(c byte) bool { return c == '\'' }) {
		z.pass(spaceQuoteBeforeSpace)
	}
	z.pass(func(dst, src []byte) []byte { return spaceAround(dst, src, "*][(){}<>") })
	if hasByte(z.a, func(c byte) bool { return c == '-' }) {
		z.pass(spaceDoubleDash)
	}
	z.pass(func(dst, src []byte) []byte { return append(append(append(dst, ' '), src...), ' ') })
	if hasByte(z.a, func(c byte) bool { return c >= 0x80 }) {
		z.pass(spaceClosingQuotes)
	}
	if hasByte(z.a, func(c byte) bool { return c == '"' || c == '\'' }) {
		z.pass(endingQuotes)
		z.pass(splitClitics)
	}
	if hasContraction(z.a) {
		for _, c := range contractions {
			z.a = c.re.ReplaceAll(z.a, c.rep)
		}
	}
	return z.a
}

func hasByte(s []byte, f func(byte) bool) bool {
	for _, c := range s {
		if f(c) {
			return true
		}
	}
	return false
}

// spaceOpeningQuotes: ([«“‘„]|[`]+) -> " \1 ".
func spaceOpeningQuotes(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		if src[i] == '`' {
			j := i
			for j < len(src) && src[j] == '`' {
				j++
			}
			dst = append(append(append(dst, ' '), src[i:j]...), ' ')
			i = j
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		if r == '«' || r == '“' || r == '‘' || r == '„' {
			dst = append(append(append(dst, ' '), src[i:i+n]...), ' ')
		} else {
			dst = append(dst, src[i:i+n]...)
		}
		i += n
	}
	return dst
}

// spaceDoubleBacktick: (“) -> " \1 ".
func spaceDoubleBacktick(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		if src[i] == '`' && i+1 < len(src) && src[i+1] == '`' {
			dst = append(dst, " `` "...)
			i++
			continue
		}
		dst = append(dst, src[i])
	}
	return dst
}

// openingQuoteAfterSpace: ([ \(\[{<])(\"|\'{2}) -> "\1 “ ".
func openingQuoteAfterSpace(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		c := src[i]
		dst = append(dst, c)
		if c != ' ' && c != '(' && c != '[' && c != '{' && c != '<' || i+1 >= len(src) {
			continue
		}
		switch {
		case src[i+1] == '"':
			dst = append(dst, " `` "...)
			i++
		case src[i+1] == '\'' && i+2 < len(src) && src[i+2] == '\'':
			dst = append(dst, " `` "...)
			i += 2
		}
	}
	return dst
}

// splitQuoteLetter: (?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b -> "\1 \2", a
// quote followed by a one-character word other than m, t, s, d or n (a
// longer word never matches, so re, ve and ll need no test).
func splitQuoteLetter(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		dst = append(dst, src[i])
		if src[i] != '\'' || i+1 >= len(src) || !isWord(src[i+1]) || i+2 < len(src) && isWord(src[i+2]) {
			continue
		}
		switch src[i+1] | 0x20 {
		case 'm', 't', 's', 'd', 'n':
			continue
		}
		dst = append(dst, ' ', src[i+1])
		i++
	}
	return dst
}

func isWord(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

func isSpace(b byte) bool {
	return b == ' ' || '\t' <= b && b <= '\r' // \t \n \v \f \r
}

// The characters a final period may be followed by, in NLTK's two
// final-period rules.
var (
	closers1 = []rune{']', ')', '}', '>', '"', '\'', '»', '”', '’', ' '}
	closers2 = []rune{']', ')', '}', '>', '"', '\''}
)

// finalPeriod implements NLTK's two final-period rules,
// ([^\.])(\.)([closers]*)\s*$, rewritten to "\1 \2 \3 " (spaced) or
// "\1 \2\3 ": the last period of the text, not preceded by a period and
// followed only by closing characters and then white space, is split off
// and the trailing white space replaced by one space.
func finalPeriod(dst, src []byte, closers []rune, spaced bool) []byte {
	p := -1
	for i := len(src) - 1; i >= 1; i-- {
		if src[i] == '.' {
			p = i
			break
		}
	}
	if p < 1 || src[p-1] == '.' {
		return append(dst, src...)
	}
	k := p + 1
	for k < len(src) {
		r, n := utf8.DecodeRune(src[k:])
		if !runeIn(r, closers) {
			break
		}
		k += n
	}
	for j := k; j < len(src); j++ {
		if !isSpace(src[j]) {
			return append(dst, src...)
		}
	}
	dst = append(dst, src[:p]...)
	if spaced {
		dst = append(dst, " . "...)
	} else {
		dst = append(dst, " ."...)
	}
	dst = append(dst, src[p+1:k]...)
	return append(dst, ' ')
}

func runeIn(r rune, set []rune) bool {
	for _, s := range set {
		if r == s {
			return true
		}
	}
	return false
}

// splitColonComma: ([:,])([^\d]) -> " \1 \2", then ([:,])$ -> " \1 ".
func splitColonComma(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != ':' && c != ',' || i+1 == len(src) || '0' <= src[i+1] && src[i+1] <= '9' {
			dst = append(dst, c)
			continue
		}
		_, n := utf8.DecodeRune(src[i+1:]) // \2 consumes the next character
		dst = append(append(dst, ' ', c, ' '), src[i+1:i+1+n]...)
		i += n
	}
	if k := len(dst) - 1; k >= 0 && (dst[k] == ':' || dst[k] == ',') {
		c := dst[k]
		dst = append(dst[:k], ' ', c, ' ')
	}
	return dst
}

// spaceEllipsis: \.{2,} -> " \g<0> ".
func spaceEllipsis(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		j := i
		for j < len(src) && src[j] == '.' {
			j++
		}
		if j-i >= 2 {
			dst = append(append(append(dst, ' '), src[i:j]...), ' ')
			i = j
			continue
		}
		if j == i {
			j++
		}
		dst = append(dst, src[i:j]...)
		i = j
	}
	return dst
}

// spaceAround puts a space on each side of every byte of set (ASCII).
func spaceAround(dst, src []byte, set string) []byte {
	for _, c := range src {
		if c < 0x80 && indexByte(set, c) {
			dst = append(dst, ' ', c, ' ')
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

func indexByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// spaceQuoteBeforeSpace: ([^'])' -> "\1 ' ".
func spaceQuoteBeforeSpace(dst, src []byte) []byte {
	end := 0 // where the previous match ended: \1 cannot start before it
	for i := 0; i < len(src); i++ {
		dst = append(dst, src[i])
		if i+2 >= len(src) || src[i+1] != '\'' || src[i+2] != ' ' || src[i] == '\'' || i < end {
			continue
		}
		if src[i] >= 0x80 {
			// The byte before the quote ends a multi-byte rune; the
			// match starts at the rune's first byte.
			if _, n := utf8.DecodeLastRune(src[:i+1]); i+1-n < end {
				continue
			}
		}
		dst = append(dst, " ' "...)
		i += 2
		end = i + 1
	}
	return dst
}

// spaceDoubleDash: -- -> " -- ".
func spaceDoubleDash(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		if src[i] == '-' && i+1 < len(src) && src[i+1] == '-' {
			dst = append(dst, " -- "...)
			i++
			continue
		}
		dst = append(dst, src[i])
	}
	return dst
}

// spaceClosingQuotes: ([»”’]) -> " \1 ".
func spaceClosingQuotes(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == '»' || r == '”' || r == '’' {
			dst = append(append(append(dst, ' '), src[i:i+n]...), ' ')
		} else {
			dst = append(dst, src[i:i+n]...)
		}
		i += n
	}
	return dst
}

// endingQuotes: ” -> " ” ", then " -> " ” ".
func endingQuotes(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\'' && i+1 < len(src) && src[i+1] == '\'':
			dst = append(dst, " '' "...)
			i++
		case src[i] == '"':
			dst = append(dst, " '' "...)
		default:
			dst = append(dst, src[i])
		}
	}
	return dst
}

// splitClitics applies NLTK's two clitic rules in turn:
// ([^' ])('[sS]|'[mM]|'[dD]|') -> "\1 \2 " and
// ([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) -> "\1 \2 ".
func splitClitics(dst, src []byte) []byte {
	tmp := clitics(nil, src, func(s []byte) int {
		if len(s) >= 3 && s[0] == '\'' && s[2] == ' ' {
			switch s[1] {
			case 's', 'S', 'm', 'M', 'd', 'D':
				return 2
			}
		}
		if len(s) >= 2 && s[0] == '\'' && s[1] == ' ' {
			return 1
		}
		return 0
	})
	return clitics(dst, tmp, func(s []byte) int {
		if len(s) < 4 || s[3] != ' ' {
			return 0
		}
		switch string(s[:3]) {
		case "'ll", "'LL", "'re", "'RE", "'ve", "'VE", "n't", "N'T":
			return 3
		}
		return 0
	})
}

// clitics rewrites X<clitic><space> as "X <clitic> " for every rune X
// other than a quote or a space, where clitic(s) returns the length of the
// clitic at the start of s (0 for none); the space is part of the match.
func clitics(dst, src []byte, clitic func([]byte) int) []byte {
	end := 0
	for i := 0; i < len(src); {
		_, n := utf8.DecodeRune(src[i:])
		dst = append(dst, src[i:i+n]...)
		if i >= end && src[i] != '\'' && src[i] != ' ' && i+n < len(src) {
			if k := clitic(src[i+n:]); k > 0 {
				dst = append(dst, ' ')
				dst = append(dst, src[i+n:i+n+k]...)
				dst = append(dst, ' ')
				i += n + k + 1
				end = i
				continue
			}
		}
		i += n
	}
	return dst
}

var (
	contractions = []struct {
		re  *regexp.Regexp
		rep []byte
	}{
		{regexp.MustCompile(`(?i)\b(can)(not)\b`), []byte(" $1 $2 ")},
		{regexp.MustCompile(`(?i)\b(d)('ye)\b`), []byte(" $1 $2 ")},
		{regexp.MustCompile(`(?i)\b(gim)(me)\b`), []byte(" $1 $2 ")},
		{regexp.MustCompile(`(?i)\b(gon)(na)\b`), []byte(" $1 $2 ")},
		{regexp.MustCompile(`(?i)\b(got)(ta)\b`), []byte(" $1 $2 ")},
		{regexp.MustCompile(`(?i)\b(lem)(me)\b`), []byte(" $1 $2 ")},
		{regexp.MustCompile(`(?i)\b(more)('n)\b`), []byte(" $1 $2 ")},
		// NLTK: (?i)\b(wan)(na)(?=\s); Go has no look-ahead, so the
		// white space is matched and put back.
		{regexp.MustCompile(`(?i)\b(wan)(na)(\s)`), []byte(" $1 $2 $3")},
		{regexp.MustCompile(`(?i) ('t)(is)\b`), []byte(" $1 $2 ")},
		{regexp.MustCompile(`(?i) ('t)(was)\b`), []byte(" $1 $2 ")},
	}
)

// contractionWords are the words the contraction rules can split.
var contractionWords = []string{"cannot", "d'ye", "gimme", "gonna", "gotta", "lemme", "more'n", "wanna", "'tis", "'twas"}

// hasContraction reports whether s contains one of contractionWords,
// ignoring ASCII case: only then can a contraction rule match.
func hasContraction(s []byte) bool {
	for i := range s {
		c := s[i] | 0x20
		if c != 'c' && c != 'd' && c != 'g' && c != 'l' && c != 'm' && c != 'w' && s[i] != '\'' {
			continue
		}
		for _, w := range contractionWords {
			if len(s)-i >= len(w) && equalFold(s[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// equalFold compares an ASCII word with b, ignoring ASCII case.
func equalFold(b []byte, w string) bool {
	for j := 0; j < len(w); j++ {
		x, y := b[j], w[j]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// fields calls f with each white-space separated field of s (the
// separators of Python's str.split()).
func fields(s []byte, f func([]byte)) {
	start := -1
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= 0x80 {
			r, n = utf8.DecodeRune(s[i:])
		}
		sep := unicode.IsSpace(r) || 0x1c <= r && r <= 0x1f
		if sep && start >= 0 {
			f(s[start:i])
			start = -1
		} else if !sep && start < 0 {
			start = i
		}
		i += n
	}
	if start >= 0 {
		f(s[start:])
	}
}

// tokenize returns the tokens of s.
func tokenize(s string) []string {
	var z tokenizer
	var out []string
	fields(z.rewrite([]byte(s)), func(t []byte) { out = append(out, string(t)) })
	return out
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
	var z tokenizer
	var t tokens
	counts := map[string]int{}
	var order []string // first occurrences, the order Python's Counter sums in
	fields(z.rewrite(src), func(tok []byte) {
		t.count++
		if k, ok := counts[string(tok)]; ok {
			counts[string(tok)] = k + 1
			return
		}
		s := string(tok)
		counts[s] = 1
		order = append(order, s)
	})
	if t.count > 0 {
		n := float64(t.count)
		for _, s := range order {
			p := float64(counts[s]) / n
			t.entropy -= p * math.Log2(p)
		}
	}
	for start := 0; start <= len(src); {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		k := 0
		fields(z.rewrite(src[start:end]), func([]byte) { k++ })
		t.maxLine = max(t.maxLine, k)
		start = end + 1
	}
	return t
}
