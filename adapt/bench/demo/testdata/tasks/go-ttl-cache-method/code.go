func getItem(items map[string]item, key string) (string, bool) {
	it, ok := items[key]
	if !ok || time.Now().After(it.expiry) {
		return "", false
	}
	return it.value, true
}
