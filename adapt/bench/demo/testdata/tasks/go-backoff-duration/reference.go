func Backoff(attempt int, base, maxDelay time.Duration) time.Duration {
	d := base
	for i := 0; i < attempt; i++ {
		if d >= maxDelay/2 {
			return maxDelay
		}
		d *= 2
	}
	if d > maxDelay {
		return maxDelay
	}
	return d
}
