package libapi

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
)

// TailLen is how much of the standard error a failure keeps.
const TailLen = 4000

// CommandOutput runs cmd (its Stderr must be unset) and returns its standard
// output. When it fails, it returns what it wrote to standard output with
// an error "label arg…: err: tail", where tail is the last TailLen bytes
// of its standard error, trimmed.
func CommandOutput(cmd *exec.Cmd, label string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w: %s", label, strings.Join(cmd.Args[1:], " "), err, tail(stderr.String(), TailLen))
	}
	return out, nil
}

// tail is s trimmed, cut to its last n bytes after "..." when longer.
func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
