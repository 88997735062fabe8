package measure

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
)

// relTh and relM are constructed so that every branch of the relative
// measures is taken: a zero threshold (skipped), values below, at and
// above their thresholds.
var (
	relTh = Thresholds{
		Complexity:      [7]float64{10, 10, 0, 4, 1, 1, 1},
		Readability:     [13]float64{0, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10},
		MaxIfConditions: 4,
	}
	relM = Metrics{
		Complexity:      [7]float64{5, 20, 7, 1, 0, 1, 2},
		Readability:     [13]float64{99, 5, 10, 12, 0, 2.5, 10, 10, 10, 10, 10, 10, 10},
		MaxIfConditions: 2,
	}
)

func TestRelativeComplexity(t *testing.T) {
	// C3 is skipped (CT3 = 0); the others give 5/10, min(20/10, 1), 1/4,
	// 0/1, 1/1, min(2/1, 1): (0.5 + 1 + 0.25 + 0 + 1 + 1) / 6.
	if got, want := relTh.RelativeComplexity(relM), 3.75/6; got != want {
		t.Errorf("RelativeComplexity = %v, want %v", got, want)
	}
	// Raw: uncapped, (0.5 + 2 + 0.25 + 0 + 1 + 2) / 6 = 0.958333…, rounded.
	if got, want := relTh.RawComplexity(relM), 0.9583; got != want {
		t.Errorf("RawComplexity = %v, want %v", got, want)
	}
	// Every C_i at its threshold: the paper's termination condition.
	full := Metrics{Complexity: GeneBenchV1.Complexity}
	if got := GeneBenchV1.RelativeComplexity(full); got != 1 {
		t.Errorf("RelativeComplexity at the thresholds = %v, want 1", got)
	}
	var zero Thresholds
	if got := zero.RelativeComplexity(relM); got != 0 {
		t.Errorf("RelativeComplexity with all thresholds 0 = %v, want 0", got)
	}
}

func TestRelativeReadability(t *testing.T) {
	// R1 is skipped (RT1 = 0); R2 1 − 0.5, R3 at the threshold 0, R4 over
	// it floored to 0, R5 1, R6 0.75, R7..R13 at the threshold 0:
	// 2.25 / 12.
	if got, want := relTh.RelativeReadability(relM), 2.25/12; got != want {
		t.Errorf("RelativeReadability = %v, want %v", got, want)
	}
	// Raw: 14 keys minus R1, not floored, R14 1 − 2/4:
	// (0.5 + 0 − 0.2 + 1 + 0.75 + 0·7 + 0.5) / 13 = 0.196153…, rounded.
	if got, want := relTh.RawReadability(relM), 0.1962; got != want {
		t.Errorf("RawReadability = %v, want %v", got, want)
	}
	var empty Metrics
	if got := GeneBenchV1.RelativeReadability(empty); got != 1 {
		t.Errorf("RelativeReadability of an empty program = %v, want 1", got)
	}
	var zero Thresholds
	if got := zero.RelativeReadability(relM); got != 0 {
		t.Errorf("RelativeReadability with all thresholds 0 = %v, want 0", got)
	}
}

func TestReadable(t *testing.T) {
	violated, ok := relTh.Readable(relM)
	// R3 and R7..R13 equal their thresholds, R4 exceeds it; R1 is skipped.
	if want := []int{2, 3, 6, 7, 8, 9, 10, 11, 12}; ok || !cmp.Equal(violated, want) {
		t.Errorf("Readable = %v, %v; want %v, false", violated, ok, want)
	}
	m := relM
	for i := range m.Readability {
		m.Readability[i] = 1
	}
	if violated, ok := relTh.Readable(m); !ok || violated != nil {
		t.Errorf("Readable of a program under every threshold = %v, %v; want nil, true", violated, ok)
	}
}

func TestGeneBenchV1(t *testing.T) {
	// The digest's §2.3 constants, in R1..R13 order.
	want := Thresholds{
		Complexity:      [7]float64{66.29, 25.59, 20.73, 30.44, 18.11, 19.86, 15.22},
		Readability:     [13]float64{5038, 402, 45, 13, 78, 45, 12, 89, 2, 4, 31, 2, 7},
		MaxIfConditions: 3,
	}
	assert.Equal(t, want, GeneBenchV1, "GeneBenchV1 mismatch")
}

func TestCalibrate(t *testing.T) {
	corpus := [][]byte{
		[]byte("x = 1\n"),
		[]byte("if a:\n    b = 2\n"),
		[]byte("def f(n):\n    return f(n - 1)\n"),
	}
	th, err := Calibrate(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
		reason    string
	}{
		{"C1", th.Complexity[0], 5.0 / 3, "1, 2 and 2 (module + f)"},
		{"C4", th.Complexity[3], 2.0 / 3, "f is recursive in the third file: 2"},
		{"C7", th.Complexity[6], 1.0 / 3, "f(n - 1)"},
		{"R2", th.Readability[1], 5.0 / 3, "1, 2 and 2 lines"},
		{"R5", th.Readability[4], 1.0 / 3, "n - 1"},
		{"R6", th.Readability[5], 1.0 / 3, "one if"},
		{"R8", th.Readability[7], 2.0 / 3, "x = 1, b = 2"},
		{"R3", th.Readability[2], 2.0 / 3, "x, b"},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("calibrated %s = %v, want %v (%s)", c.name, c.got, c.want, c.reason)
		}
	}
	// Every threshold is the mean of the measured values.
	var sum Thresholds
	for _, f := range corpus {
		m, _ := Measure(f)
		for i := range sum.Complexity {
			sum.Complexity[i] += m.Complexity[i] / 3
		}
		for i := range sum.Readability {
			sum.Readability[i] += m.Readability[i] / 3
		}
		sum.MaxIfConditions += m.MaxIfConditions / 3
	}
	assert.Empty(t, cmp.Diff(sum, th, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-9 })), "Calibrate is not the mean (-want +got)")
	ceil := th.Ceil()
	if ceil.Readability[1] != 2 || ceil.Readability[5] != 1 || ceil.Complexity[0] != th.Complexity[0] {
		t.Errorf("Ceil: R2 %v (want 2), R6 %v (want 1), C1 %v (want unchanged %v)",
			ceil.Readability[1], ceil.Readability[5], ceil.Complexity[0], th.Complexity[0])
	}
}

func TestCalibrateErrors(t *testing.T) {
	if _, err := Calibrate(nil); !errors.Is(err, errEmptyCorpus) {
		t.Errorf("Calibrate(nil) = %v, want errEmptyCorpus", err)
	}
	_, err := Calibrate([][]byte{[]byte("x = 1\n"), []byte("def (:\n")})
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "file 1") {
		t.Errorf("Calibrate with a bad file = %v, want an ErrSyntax naming file 1", err)
	}
}
