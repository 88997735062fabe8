func parsePort(s string) int {
	port, err := strconv.Atoi(s)
	if err != nil {
		log.Fatal(err)
	}
	return port
}
