package textstat

import (
	"maps"
	"testing"
)

func check(t *testing.T, text string, want map[string]int) {
	t.Helper()
	if got := wordFreq(text); !maps.Equal(got, want) {
		t.Errorf("wordFreq(%q) = %v, want %v", text, got, want)
	}
}

func TestWordFreqUsesTokenizer(t *testing.T) {
	check(t, "Go, go  GO!", map[string]int{"go": 3})
	check(t, "don't stop\tbelieving", map[string]int{"don't": 1, "stop": 1, "believing": 1})
}

func TestWordFreqSkipsStopWords(t *testing.T) {
	check(t, "the cat and the dog", map[string]int{"cat": 1, "dog": 1})
	check(t, "of an a", map[string]int{})
}

func TestWordFreqSimple(t *testing.T) {
	check(t, "red blue red", map[string]int{"red": 2, "blue": 1})
}

func TestWordFreqEmpty(t *testing.T) {
	check(t, "", map[string]int{})
	check(t, "   ", map[string]int{})
}

func TestVocabulary(t *testing.T) {
	if got := Vocabulary("The cat sat on the mat. The CAT!"); got != 4 {
		t.Errorf("Vocabulary = %d, want 4", got)
	}
	if got := TopWord("b a-b c; B the the the"); got != "b" {
		t.Errorf("TopWord = %q, want \"b\"", got)
	}
}
