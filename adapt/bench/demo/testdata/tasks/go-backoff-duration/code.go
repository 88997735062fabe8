func expBackoff(retry int) int {
	return int(math.Pow(2, float64(retry))) * 100
}
