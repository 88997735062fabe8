func parsePort(s string) (int, error) {
	port, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("invalid port %q: %w", s, err)
	}
	if port < 1 || port > maxPort {
		return 0, fmt.Errorf("port %d out of range 1-%d", port, maxPort)
	}
	return port, nil
}
