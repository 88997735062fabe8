package metrics

import (
	"errors"
	"fmt"
)

// ErrInvalidArgument is wrapped by every error the package returns for input
// it cannot evaluate: out-of-range counts, probabilities outside their domain,
// a zero baseline and so on.
var ErrInvalidArgument = errors.New("metrics: invalid argument")

// ErrEmpty is wrapped by errors about an input slice that must not be empty.
// It wraps [ErrInvalidArgument].
var ErrEmpty = fmt.Errorf("%w: empty input", ErrInvalidArgument)

// ErrLengthMismatch is wrapped by errors about paired slices of different
// lengths. It wraps [ErrInvalidArgument].
var ErrLengthMismatch = fmt.Errorf("%w: length mismatch", ErrInvalidArgument)

// invalid returns an error wrapping ErrInvalidArgument for function fn.
func invalid(fn, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrInvalidArgument, fn, fmt.Sprintf(format, args...))
}

// checkConfidence validates a two-sided confidence level.
func checkConfidence(fn string, confidence float64) error {
	if !(confidence > 0 && confidence < 1) {
		return invalid(fn, "confidence %v outside (0, 1)", confidence)
	}
	return nil
}
