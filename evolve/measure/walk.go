package measure

func (f *file) measure(thirdParty []string) Metrics {
	var m Metrics
	return m
}
