package report

import (
	"bytes"
	"strings"
)

// firstLine is s's first line, spaces trimmed.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// lineOf is the line (from 1) of byte offset off of b.
func lineOf(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return 1 + bytes.Count(b[:off], []byte("\n"))
}

// Sample isolations (SampleResult.Isolation), as package adapt sets them.
const (
	isolatedProcess = "process"
	isolatedNot     = "in-process"
)
