package store

import (
	"strings"
	"unicode/utf8"
)

// ValidText is s as a JSON encoder writes it: each byte that is not part
// of valid UTF-8 replaced by U+FFFD. Evaluate files the words of a result
// (a test's output, an error) this way, so that the report of a run and
// the report of its journal hold the same text.
func ValidText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
