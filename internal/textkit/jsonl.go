package textkit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxJSONLine is the longest line ReadJSONL accepts: 256 MiB.
const MaxJSONLine = 256 << 20

// ReadJSONL calls f with each non-blank line of r (surrounding white space
// trimmed) and its 1-based number; raw is valid only during the call. It
// stops at the first error and returns at(line, err): f's error with its
// line, a line longer than MaxJSONLine with its line, or a read error with
// line 0. Callers make their own error type in at (adapt's ParseError).
func ReadJSONL(r io.Reader, f func(line int, raw []byte) error, at func(line int, err error) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxJSONLine)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		if err := f(line, raw); err != nil {
			return at(line, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return at(line+1, fmt.Errorf("line longer than %d bytes", MaxJSONLine))
		}
		return at(0, err)
	}
	return nil
}
