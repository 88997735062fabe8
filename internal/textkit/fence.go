package textkit

import "strings"

// CodeBlocks returns the fenced code blocks of a completion, in order, as
// CommonMark reads fenced code blocks (spec 0.31, §4.5): a fence is a line
// of at least three backticks or tildes indented at most 3 spaces (the info
// string of a backtick fence has no backtick); the block ends at the first
// closing fence of the same character, at least as long, indented at most
// 3 spaces and followed only by spaces or tabs; up to the opening fence's
// indentation is removed from each line of the block. So a fence line
// indented deeper, such as one in an indented docstring, neither opens nor
// closes a block. An unterminated last fence runs to the end of the text (a
// truncated answer). A completion with no fence line is returned whole, as
// one block.
//
// One departure from CommonMark: in a block tagged python, py or python3,
// or untagged, a closing fence inside a triple-quoted string literal does
// not close the block (a docstring whose text starts at column 0 may hold a
// Markdown example); if the block has no closing fence outside a string
// literal, the first closing fence closes it all the same, so that an
// unbalanced quote cannot swallow the rest of the answer. Fence lines in a
// Markdown list item indented 4 or more spaces are not recognized.
func CodeBlocks(completion string) []string {
	lines := strings.SplitAfter(completion, "\n")
	var blocks []string
	opened := false
	for i := 0; i < len(lines); i++ {
		open, ok := openingFence(lines[i])
		if !ok {
			continue
		}
		opened = true
		end := closingLine(lines[i+1:], open) // index into lines[i+1:]; len means none
		var b strings.Builder
		for _, l := range lines[i+1 : i+1+end] {
			b.WriteString(stripIndent(l, open.indent))
		}
		if body := b.String(); strings.TrimSpace(body) != "" {
			blocks = append(blocks, body)
		}
		i += end + 1
	}
	if !opened && strings.TrimSpace(completion) != "" {
		blocks = append(blocks, completion)
	}
	return blocks
}

// codeFence is an opening code fence.
type codeFence struct {
	char   byte // '`' or '~'
	n      int  // its length
	indent int  // spaces before it
	python bool // the info string names Python, or is empty
}

// openingFence parses a line as an opening code fence.
func openingFence(line string) (codeFence, bool) {
	l := strings.TrimRight(line, "\r\n")
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if indent > 3 {
		return codeFence{}, false
	}
	l = l[indent:]
	if l == "" || (l[0] != '`' && l[0] != '~') {
		return codeFence{}, false
	}
	n := len(l) - len(strings.TrimLeft(l, l[:1]))
	if n < 3 {
		return codeFence{}, false
	}
	info := l[n:]
	if l[0] == '`' && strings.ContainsRune(info, '`') {
		return codeFence{}, false
	}
	lang, _, _ := strings.Cut(strings.TrimSpace(info), " ")
	lang = strings.ToLower(lang)
	py := lang == "" || lang == "python" || lang == "py" || lang == "python3"
	return codeFence{char: l[0], n: n, indent: indent, python: py}, true
}

// isClosingFence is whether line closes a block opened by f.
func isClosingFence(line string, f codeFence) bool {
	l := strings.TrimRight(line, "\r\n")
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if indent > 3 {
		return false
	}
	l = l[indent:]
	n := len(l) - len(strings.TrimLeft(l, string(f.char)))
	return n >= f.n && strings.Trim(l[n:], " \t") == ""
}

// closingLine returns the index in lines of the line that closes a block
// opened by f, or len(lines) when none does.
func closingLine(lines []string, f codeFence) int {
	first := len(lines)
	var st pyStrings
	for i, l := range lines {
		if isClosingFence(l, f) {
			if !f.python || !st.inTriple() {
				return i
			}
			first = min(first, i)
		}
		if f.python {
			st.scan(l)
		}
	}
	return first
}

// pyStrings follows Python's triple-quoted string literals line by line,
// enough to tell whether a line starts inside one: comments, one-line
// strings and backslash escapes are skipped.
type pyStrings struct {
	triple string // `"""` or `'''` while inside one
}

func (s *pyStrings) inTriple() bool { return s.triple != "" }

func (s *pyStrings) scan(line string) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if s.triple != "" {
			switch {
			case c == '\\':
				i++
			case strings.HasPrefix(line[i:], s.triple):
				i += 2
				s.triple = ""
			}
			continue
		}
		switch c {
		case '#':
			return
		case '"', '\'':
			q := line[i : i+1]
			if strings.HasPrefix(line[i:], q+q+q) {
				s.triple = q + q + q
				i += 2
				continue
			}
			// A one-line string: skip to its closing quote.
			for i++; i < len(line) && line[i] != c && line[i] != '\n'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		}
	}
}

// stripIndent removes up to n leading spaces from line.
func stripIndent(line string, n int) string {
	for i := 0; i < n && strings.HasPrefix(line, " "); i++ {
		line = line[1:]
	}
	return line
}
