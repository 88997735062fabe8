package measure

import (
	"errors"
	"fmt"
)

// ErrSyntax is wrapped by the error [Measure] returns when the source does
// not parse as Python.
var ErrSyntax = errors.New("measure: syntax error")

// Metrics holds the GeneBench metric values of one Python file.
//
// Complexity[i] is C(i+1) of the paper's Table 1 and Readability[i] is
// R(i+1) of its Table 2 (see the table in the package documentation). For
// every value, higher means more complex or less readable.
type Metrics struct {
	// Complexity holds C1..C7; higher is more complex.
	Complexity [7]float64
	// Readability holds R1..R13; higher is less readable.
	Readability [13]float64
	// MaxIfConditions is the artifact's 14th readability key,
	// num_max_conditions_in_if, which the paper does not list: the
	// largest number of atomic conditions in one if test. Higher is less
	// readable. Only the artifact variants ([Thresholds.RawReadability],
	// [Thresholds.FirstExceeded]) use it.
	MaxIfConditions float64
}

// Measure computes the metrics of a Python source file with the default
// [Options]. The error wraps [ErrSyntax] when src does not parse.
func Measure(src []byte) (Metrics, error) {
	return (*Options)(nil).Measure(src)
}

// Options configures [Options.Measure]. A nil *Options and the zero value
// both mean the defaults.
type Options struct {
	// ThirdParty lists the top-level import names (numpy, sklearn, …) that
	// C5 counts as third-party packages, in addition to the standard
	// library (see [Stdlib]). A name listed here that is also a stdlib
	// module changes nothing. nil means [DefaultThirdParty]; an empty
	// non-nil slice means none (only stdlib calls count for C5).
	ThirdParty []string
}

// DefaultThirdParty is the allow-list of third-party packages C5 uses when
// Options.ThirdParty is nil: the packages GeneBench's API operators (A4,
// A6, A7, S9) and A2 inject, which the artifact's environment had
// installed.
var DefaultThirdParty = []string{"cryptography", "dateutil", "numpy", "scipy", "sklearn"}

// Measure computes the metrics of a Python source file. The error wraps
// [ErrSyntax] (and names the line and column) when tree-sitter's Python
// grammar finds an error in src. That grammar is more permissive than
// CPython's parser in a few places (a return outside a function, a Python
// 2 print statement, `x = *a`, an unexpected indent), and such sources are
// measured rather than rejected; gate on CPython's ast.parse where that
// matters.
func (o *Options) Measure(src []byte) (Metrics, error) {
	var tp []string
	if o == nil || o.ThirdParty == nil {
		tp = DefaultThirdParty
	} else {
		tp = o.ThirdParty
	}
	f, err := parse(src)
	if err != nil {
		return Metrics{}, err
	}
	return f.measure(tp), nil
}

// errSyntax builds the error for a syntax error at line:col.
func errSyntax(line, col int, what string) error {
	return fmt.Errorf("%w: line %d, column %d: %s", ErrSyntax, line, col, what)
}
