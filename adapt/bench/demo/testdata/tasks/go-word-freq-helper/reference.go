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
