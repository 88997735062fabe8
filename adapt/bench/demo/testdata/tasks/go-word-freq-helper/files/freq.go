// Package textstat computes simple statistics over documents.
package textstat

import (
	"strings"
	"unicode"
)

// stopWords are ignored by every statistic of this package.
var stopWords = map[string]bool{"a": true, "an": true, "and": true, "of": true, "the": true}

// tokenize lower-cases s and splits it into words, dropping punctuation.
func tokenize(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// wordFreq counts how often each word occurs in text.
func wordFreq(text string) map[string]int {
	counts := make(map[string]int)
	for _, w := range tokenize(text) {
		if stopWords[w] {
			continue
		}
		counts[w]++
	}
	return counts
}

// Vocabulary returns the number of distinct words in text.
func Vocabulary(text string) int {
	return len(wordFreq(text))
}

// TopWord returns the most frequent word (the first in alphabetical order on ties).
func TopWord(text string) string {
	best := ""
	for w, n := range wordFreq(text) {
		if m := wordFreq(text)[best]; n > m || (n == m && w < best) {
			best = w
		}
	}
	return best
}
