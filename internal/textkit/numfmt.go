package textkit

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Pct is a fraction in percent with two decimals; "-" for NaN (not
// computed).
func Pct(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return Fixed(100*v, 2)
}

// Fixed formats v with prec decimals, never as a negative zero: a value
// that rounds to zero ("-0.000000" for -0 or -1e-17) is written unsigned.
func Fixed(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.HasPrefix(s, "-") && strings.Trim(s[1:], "0.") == "" {
		return s[1:]
	}
	return s
}

// SignedPct is a difference in percentage points with its sign: "+2.50",
// "-1.00", "0.00" (never "-0.00").
func SignedPct(v float64) string {
	s := Pct(v)
	if s != "-" && !strings.HasPrefix(s, "-") && strings.Trim(s, "0.") != "" {
		s = "+" + s
	}
	return s
}

// Labels labels runs by name; a name that two of them share is suffixed
// with its position among them, " #1", " #2", in the order given.
func Labels(names []string) []string {
	count := map[string]int{}
	for _, n := range names {
		count[n]++
	}
	seen := map[string]int{}
	out := make([]string, len(names))
	for i, l := range names {
		if count[l] > 1 {
			seen[l]++
			l = fmt.Sprintf("%s #%d", l, seen[l])
		}
		out[i] = l
	}
	return out
}

// SampleRange is the fewest and the most samples a run drew of a task:
// both samples, unless the run held other counts for some tasks (perTask,
// of taskCount tasks in all; a replay's files can).
func SampleRange(samples int, perTask map[string]int, taskCount int) (lo, hi int) {
	lo, hi = samples, samples
	if len(perTask) > 0 && len(perTask) == taskCount {
		// Every task has a count of its own: samples is none's.
		lo, hi = math.MaxInt, math.MinInt
	}
	for _, n := range perTask {
		lo, hi = min(lo, n), max(hi, n)
	}
	return lo, hi
}

// SamplesText is the number of samples a run drew of each task, "2", or
// their range, "1–2 per task", when it drew more of some tasks than of
// others (see SampleRange).
func SamplesText(samples int, perTask map[string]int, taskCount int) string {
	lo, hi := SampleRange(samples, perTask, taskCount)
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d–%d per task", lo, hi)
}

// Ks is every k of ks (the k of each score of each run) once, in
// increasing order: the pass@k columns of a table of several runs.
func Ks(ks []int) []int {
	ks = slices.Clone(ks)
	slices.Sort(ks)
	return slices.Compact(ks)
}

// Count is n and the noun, plural unless n is 1: "1 check", "2 checks".
// The plural is the noun with an s: the nouns the reports count take one.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
