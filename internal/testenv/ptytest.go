package testenv

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// Terminal is a pseudo-terminal of 120 columns: write to TTY, then read
// what was written with Output.
type Terminal struct {
	TTY  *os.File
	ptmx *os.File
	out  chan string
}

// OpenTerminal opens a Terminal, skipping the test where the machine has none.
func OpenTerminal(tb testing.TB) *Terminal {
	tb.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		tb.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		tb.Fatal(err)
	}
	t := &Terminal{TTY: tty, ptmx: ptmx, out: make(chan string, 1)}
	go func() {
		b, _ := io.ReadAll(ptmx) // until the TTY side is closed (EIO)
		t.out <- string(b)
	}()
	tb.Cleanup(func() { ptmx.Close(); tty.Close() })
	return t
}

// Output closes the TTY side and returns everything written to it, as
// the terminal received it (escape sequences, carriage returns).
func (t *Terminal) Output() string {
	t.TTY.Close()
	return <-t.out
}

// ansi matches the escape sequences a terminal interprets.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// Screen returns the lines a terminal shows for out: a carriage return
// starts its line again (the last redraw with text stays), escape
// sequences and blank lines are dropped.
func Screen(out string) []string {
	out = ansi.ReplaceAllString(out, "")
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		parts := strings.Split(l, "\r")
		l = ""
		for j := len(parts) - 1; j >= 0; j-- {
			if strings.TrimSpace(parts[j]) != "" {
				l = parts[j]
				break
			}
		}
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimRight(l, " "))
		}
	}
	return lines
}

// bar matches a finished bar line: the description, 100%, a full bar, the
// count and rate, and the time taken.
var bar = regexp.MustCompile(`^(.+?) +100% \|█+\| \((\d+)/(\d+), [0-9.]+ [a-z]+/[a-z]+\) \[[0-9.]+[a-zµ]*s\]$`)

// Bars returns the description of each finished bar on the screen of out,
// in order, and the lines that are neither bars nor in progress.
func Bars(out string) (bars, other []string) {
	for _, l := range Screen(out) {
		if m := bar.FindStringSubmatch(l); m != nil && m[2] == m[3] {
			bars = append(bars, m[1])
		} else {
			other = append(other, l)
		}
	}
	return bars, other
}

// RunProgram builds the main package in dir and runs it with args, in
// dir, with its standard error on a new pseudo-terminal, as a person would
// run an example; it fails tb if the build or the run fails. It returns
// the bars the terminal shows (see Bars) and the standard output.
func RunProgram(tb testing.TB, dir string, args ...string) (bars []string, stdout string) {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "program")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", dir, err, out)
	}
	term := OpenTerminal(tb)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, term.TTY
	err := cmd.Run()
	raw := term.Output()
	if err != nil {
		tb.Fatalf("%s %s: %v\nstderr on the terminal:\n%s\nstdout:\n%s", dir, strings.Join(args, " "), err, strings.Join(Screen(raw), "\n"), out.String())
	}
	bars, _ = Bars(raw)
	return bars, out.String()
}
