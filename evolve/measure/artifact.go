package measure

// artifactOrder lists the readability metrics in the order of the
// artifact's readability dictionary (tool/readability.py), which is the
// order its readability_stopping checks them in: indices into
// Metrics.Readability, with -1 for MaxIfConditions.
var artifactOrder = [14]int{0, 1, 5, 6, 7, 8, 9, -1, 10, 2, 3, 4, 11, 12}

// FirstExceeded is the artifact's readability_stopping: the first
// readability metric, in the artifact's key order (num_tokens,
// lines_of_code, num_conditions, num_loops, num_assignments,
// num_max_nested_loop, num_max_nested_if, num_max_conditions_in_if,
// max_line_tokens, num_of_variables, num_of_arrays, num_of_operators,
// num_of_nested_casting, entropy), whose value is strictly above its
// threshold; ok is false when there is none. Unlike the artifact, a
// metric whose threshold is 0 is skipped, as everywhere in this package.
// The search bans that metric's [ArtifactBans] operators for the rest of
// the program's run.
func (t *Thresholds) FirstExceeded(m Metrics) (metric Info, ok bool) {
	for _, i := range artifactOrder {
		v, th, info := m.MaxIfConditions, t.MaxIfConditions, MaxIfConditionsInfo
		if i >= 0 {
			v, th, info = m.Readability[i], t.Readability[i], ReadabilityInfo[i]
		}
		if th != 0 && v > th {
			return info, true
		}
	}
	return Info{}, false
}

// Ban is one entry of the artifact's operator ban map
// (utils.readability_operators): when the readability metric with
// artifact key Key exceeds its threshold, the operators listed (by the
// artifact's operator names, e.g. add_nested_if for S2) are banned.
type Ban struct {
	Key       string   // artifact key of the readability metric, as in Info.ArtifactKey
	Operators []string // artifact operator names, in the artifact's order
}

// ArtifactBans is the artifact's ban map, in its key order. API operators
// are never banned; max_line_tokens and num_of_nested_casting ban
// nothing. Callers must not modify it.
var ArtifactBans = []Ban{
	{"num_tokens", growth},
	{"lines_of_code", without(growth, "add_nested_list")},
	{"num_conditions", []string{"add_nested_if", "transform_range_to_recursion"}},
	{"num_loops", []string{"add_nested_for_out", "add_nested_while_out"}},
	{"num_assignments", []string{"add_nested_for_out", "add_nested_while_out", "add_nested_if",
		"transform_range_to_recursion", "add_thread", "add_decorator", "introduce_confusing_vars"}},
	{"num_max_nested_loop", []string{"add_nested_for_out", "add_nested_while_out"}},
	{"num_max_nested_if", []string{"add_nested_if"}},
	{"num_max_conditions_in_if", []string{"add_nested_if"}},
	{"max_line_tokens", nil},
	{"num_of_variables", []string{"introduce_confusing_vars"}},
	{"num_of_arrays", []string{"add_nested_list"}},
	{"num_of_operators", []string{"add_nested_for_out", "add_nested_while_out", "add_nested_if"}},
	{"num_of_nested_casting", nil},
	{"entropy", growth},
}

// growth is the artifact's list for num_tokens and entropy: every
// structural operator that makes the program longer.
var growth = []string{"add_nested_for_out", "add_nested_while_out", "add_nested_if", "create_functions",
	"add_try_except_inside_functions", "add_else_to_for", "add_else_to_while", "add_nested_list",
	"replace_with_numpy", "transform_range_to_recursion", "add_thread", "add_decorator", "introduce_confusing_vars"}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

// BannedBy returns the artifact operators banned when the readability
// metric with the given artifact key is exceeded (nil for none or an
// unknown key).
func BannedBy(key string) []string {
	for _, b := range ArtifactBans {
		if b.Key == key {
			return b.Operators
		}
	}
	return nil
}
