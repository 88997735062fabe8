//go:build cgo

package syntax

import "bytes"

// Dedent removes the longest common leading white space from every
// non-blank line of code, like Python's textwrap.dedent: spaces and tabs are
// compared literally ("\t" and "    " have nothing in common) and lines
// containing only white space become empty (a trailing "\r" is kept). The
// result is a new slice.
//
// Dedent knows nothing about the language: a continuation line of a
// multi-line string counts like any other line and loses the common
// indentation too. [Extract] and [Replace] avoid that; see the package
// comment.
func Dedent(code []byte) []byte {
	return reindent(code, nil, nil, "")
}

// Indent returns a copy of code with prefix added at the start of every
// non-blank line; lines containing only white space are left unchanged.
func Indent(code []byte, prefix string) []byte {
	out := make([]byte, 0, len(code)+len(prefix)*(bytes.Count(code, []byte{'\n'})+1))
	for rest := code; len(rest) > 0; {
		line, term := nextLine(rest)
		rest = rest[len(line)+len(term):]
		if !isBlank(line) {
			out = append(out, prefix...)
		}
		out = append(out, line...)
		out = append(out, term...)
	}
	return out
}

// Reindent is Indent(Dedent(code), indent): it moves a block of code to the
// indentation indent while keeping its relative indentation.
func Reindent(code []byte, indent string) []byte {
	return reindent(code, nil, nil, indent)
}

// reindent dedents code and indents it with indent. hard and soft are
// sorted, non-overlapping spans of code (multi-line string literals and
// comments). A line starting strictly inside a hard span is copied verbatim
// and a line starting strictly inside a soft span does not count for the
// common indentation (it loses as much of it as it has and gains indent).
func reindent(code []byte, hard, soft []span, indent string) []byte {
	const (
		codeLine = iota
		softLine
		hardLine
	)
	var kinds []int
	var prefix []byte
	havePrefix := false
	classify := func(at int) int {
		for len(hard) > 0 && hard[0].end <= at {
			hard = hard[1:]
		}
		for len(soft) > 0 && soft[0].end <= at {
			soft = soft[1:]
		}
		switch {
		case len(hard) > 0 && hard[0].start < at:
			return hardLine
		case len(soft) > 0 && soft[0].start < at:
			return softLine
		}
		return codeLine
	}

	for at, rest := 0, code; len(rest) > 0; {
		line, term := nextLine(rest)
		k := classify(at)
		kinds = append(kinds, k)
		if k == codeLine && !isBlank(line) {
			ws := leadingSpace(line)
			if !havePrefix {
				prefix, havePrefix = ws, true
			} else {
				prefix = prefix[:commonPrefix(prefix, ws)]
			}
		}
		n := len(line) + len(term)
		at += n
		rest = rest[n:]
	}

	out := make([]byte, 0, len(code)+len(indent)*len(kinds))
	i := 0
	for rest := code; len(rest) > 0; i++ {
		line, term := nextLine(rest)
		rest = rest[len(line)+len(term):]
		switch {
		case kinds[i] == hardLine:
			out = append(out, line...)
		case isBlank(line):
			if bytes.HasSuffix(line, []byte{'\r'}) {
				out = append(out, '\r')
			}
		case kinds[i] == softLine:
			out = append(out, indent...)
			out = append(out, line[commonPrefix(prefix, leadingSpace(line)):]...)
		default:
			out = append(out, indent...)
			out = append(out, line[len(prefix):]...)
		}
		out = append(out, term...)
	}
	return out
}

// nextLine splits the first line off b: line is its content and term is
// "\n" or "" at the end of b.
func nextLine(b []byte) (line, term []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i : i+1]
	}
	return b, nil
}

// isBlank reports whether line contains only white space.
func isBlank(line []byte) bool {
	for _, c := range line {
		switch c {
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
