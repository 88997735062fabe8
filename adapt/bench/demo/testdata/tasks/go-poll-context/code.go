func waitUntil(check func() bool, interval time.Duration) {
	for !check() {
		time.Sleep(interval)
	}
}
