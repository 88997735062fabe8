package measure

// Info describes one metric.
type Info struct {
	ID          string // "C1".."C7", "R1".."R13", or "R14" for the artifact's extra key
	Name        string // short English name, as in the paper's tables
	ArtifactKey string // the key of the artifact's metric dictionaries
}

// ComplexityInfo describes C1..C7, indexed like [Metrics.Complexity].
var ComplexityInfo = [7]Info{
	{"C1", "cyclomatic complexity", "Base complexity"},
	{"C2", "compound predicates", "Predicates with operators"},
	{"C3", "nesting levels", "Nested levels"},
	{"C4", "complex code structures", "Complex code structures"},
	{"C5", "third-party calls", "Third-Party calls"},
	{"C6", "inter-class dependencies", "Inter_dependencies"},
	{"C7", "intra-class dependencies", "Intra_dependencies"},
}

// ReadabilityInfo describes R1..R13, indexed like [Metrics.Readability].
var ReadabilityInfo = [13]Info{
	{"R1", "tokens", "num_tokens"},
	{"R2", "lines of code", "lines_of_code"},
	{"R3", "variables", "num_of_variables"},
	{"R4", "arrays", "num_of_arrays"},
	{"R5", "operators", "num_of_operators"},
	{"R6", "conditions", "num_conditions"},
	{"R7", "loops", "num_loops"},
	{"R8", "assignments", "num_assignments"},
	{"R9", "max nested loops", "num_max_nested_loop"},
	{"R10", "max nested ifs", "num_max_nested_if"},
	{"R11", "max tokens per line", "max_line_tokens"},
	{"R12", "nested casts", "num_of_nested_casting"},
	{"R13", "entropy", "entropy"},
}

// MaxIfConditionsInfo describes [Metrics.MaxIfConditions], the artifact's
// 14th readability key.
var MaxIfConditionsInfo = Info{"R14", "max conditions in an if", "num_max_conditions_in_if"}

// ComplexityName returns the name of C(i+1), e.g. "cyclomatic complexity"
// for 0, or "" when i is out of range.
func ComplexityName(i int) string {
	if i < 0 || i >= len(ComplexityInfo) {
		return ""
	}
	return ComplexityInfo[i].Name
}

// ReadabilityName returns the name of R(i+1), e.g. "tokens" for 0, or ""
// when i is out of range.
func ReadabilityName(i int) string {
	if i < 0 || i >= len(ReadabilityInfo) {
		return ""
	}
	return ReadabilityInfo[i].Name
}
