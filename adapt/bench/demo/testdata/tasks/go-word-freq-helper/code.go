func wordFreq(text string) map[string]int {
	counts := make(map[string]int)
	for _, w := range strings.Split(text, " ") {
		counts[w]++
	}
	return counts
}
