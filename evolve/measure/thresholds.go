package measure

import (
	"errors"
	"fmt"
	"math"
)

// Thresholds are the reference values CT (complexity) and RT
// (readability) that the relative measures divide by: per metric, the mean
// over a reference corpus (the paper uses SWE-Bench buggy files). A zero
// threshold switches its metric off in every relative measure.
type Thresholds struct {
	// Complexity holds CT1..CT7, indexed like [Metrics.Complexity].
	Complexity [7]float64
	// Readability holds RT1..RT13, indexed like [Metrics.Readability].
	Readability [13]float64
	// MaxIfConditions is the threshold of the artifact's 14th key
	// ([Metrics.MaxIfConditions]); only the artifact variants use it.
	MaxIfConditions float64
}

// GeneBenchV1 holds the constants hard-coded in the GeneBench artifact
// (tool/python_transformer.py): the complexity targets are the raw
// SWE-Bench means, the readability targets their ceilings. They were
// computed with the artifact's Python metric code; since this package
// builds C1's graph differently and tokenizes without sentence splitting
// (see the package documentation), thresholds calibrated with [Calibrate]
// on the same reference corpus are the consistent choice.
var GeneBenchV1 = Thresholds{
	Complexity: [7]float64{66.29, 25.59, 20.73, 30.44, 18.11, 19.86, 15.22},
	Readability: [13]float64{
		5038, // R1 num_tokens
		402,  // R2 lines_of_code
		45,   // R3 num_of_variables
		13,   // R4 num_of_arrays
		78,   // R5 num_of_operators
		45,   // R6 num_conditions
		12,   // R7 num_loops
		89,   // R8 num_assignments
		2,    // R9 num_max_nested_loop
		4,    // R10 num_max_nested_if
		31,   // R11 max_line_tokens
		2,    // R12 num_of_nested_casting
		7,    // R13 entropy
	},
	MaxIfConditions: 3,
}

// RelativeComplexity is the paper's Eq. 1: the mean over the metrics with
// a non-zero threshold of min(C_i/CT_i, 1). It lies in [0, 1] for
// non-negative metrics and is 1 exactly when every C_i reaches CT_i (the
// paper's termination condition). It is 0 when every threshold is 0.
func (t *Thresholds) RelativeComplexity(m Metrics) float64 {
	return relative(m.Complexity[:], t.Complexity[:], func(r float64) float64 { return min(r, 1) })
}

// RelativeReadability is the paper's Eq. 2: the mean over the metrics with
// a non-zero threshold of max(1 − R_i/RT_i, 0), over the 13 metrics of
// the paper. It lies in [0, 1] for non-negative metrics; higher is more
// readable. It is 0 when every threshold is 0.
func (t *Thresholds) RelativeReadability(m Metrics) float64 {
	return relative(m.Readability[:], t.Readability[:], func(r float64) float64 { return max(1-r, 0) })
}

// RawComplexity is the artifact's RC (utils.relevant_distance_complexity):
// the mean of C_i/CT_i over the metrics with a non-zero threshold,
// uncapped (it exceeds 1 once metrics pass their thresholds), rounded to
// 4 decimals as the artifact does.
func (t *Thresholds) RawComplexity(m Metrics) float64 {
	return round4(relative(m.Complexity[:], t.Complexity[:], func(r float64) float64 { return r }))
}

// RawReadability is the artifact's RR
// (utils.relevant_distance_readability): the mean of 1 − R_i/RT_i over the
// 14 keys (R1..R13 and MaxIfConditions) with a non-zero threshold, not
// floored (it goes negative past the thresholds), rounded to 4 decimals.
func (t *Thresholds) RawReadability(m Metrics) float64 {
	vals := append(m.Readability[:], m.MaxIfConditions)
	ts := append(t.Readability[:], t.MaxIfConditions)
	return round4(relative(vals, ts, func(r float64) float64 { return 1 - r }))
}

// Readable applies the paper's validity rule: a program breaks
// readability when some R_i ≥ RT_i. It returns the indices (0 for R1,
// …, 12 for R13) of the violated metrics in increasing order and whether
// there are none. Metrics whose threshold is 0 are skipped, as in the
// relative measures.
func (t *Thresholds) Readable(m Metrics) (violated []int, ok bool) {
	for i, th := range t.Readability {
		if th != 0 && m.Readability[i] >= th {
			violated = append(violated, i)
		}
	}
	return violated, len(violated) == 0
}

// relative returns the mean of f(v_i/t_i) over the i with t_i ≠ 0, summed
// in index order, or 0 if there is none.
func relative(vals, ts []float64, f func(float64) float64) float64 {
	sum, n := 0.0, 0
	for i, th := range ts {
		if th == 0 {
			continue
		}
		sum += f(vals[i] / th)
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// errEmptyCorpus is returned by [Calibrate] for an empty corpus.
var errEmptyCorpus = errors.New("measure: empty calibration corpus")

// Calibrate measures every file of a reference corpus with the default
// [Options] and returns the per-metric means as thresholds (sums taken in
// file order). Use [Thresholds.Ceil] to round the readability thresholds
// up as the artifact did. A file that does not parse makes the whole call
// fail with an error naming its index; filter the corpus first.
func Calibrate(files [][]byte) (Thresholds, error) {
	return (*Options)(nil).Calibrate(files)
}

// Calibrate is [Calibrate] with these options.
func (o *Options) Calibrate(files [][]byte) (Thresholds, error) {
	if len(files) == 0 {
		return Thresholds{}, errEmptyCorpus
	}
	var sum Thresholds
	for i, f := range files {
		m, err := o.Measure(f)
		if err != nil {
			return Thresholds{}, fmt.Errorf("measure: calibration file %d: %w", i, err)
		}
		for j, v := range m.Complexity {
			sum.Complexity[j] += v
		}
		for j, v := range m.Readability {
			sum.Readability[j] += v
		}
		sum.MaxIfConditions += m.MaxIfConditions
	}
	n := float64(len(files))
	for j := range sum.Complexity {
		sum.Complexity[j] /= n
	}
	for j := range sum.Readability {
		sum.Readability[j] /= n
	}
	sum.MaxIfConditions /= n
	return sum, nil
}

// Ceil returns t with its readability thresholds (MaxIfConditions
// included) rounded up to integers, which is how the artifact derived its
// readability constants from the SWE-Bench means.
func (t Thresholds) Ceil() Thresholds {
	for i, v := range t.Readability {
		t.Readability[i] = math.Ceil(v)
	}
	t.MaxIfConditions = math.Ceil(t.MaxIfConditions)
	return t
}
