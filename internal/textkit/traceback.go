package textkit

import (
	"strings"
	"unicode"
)

// ExceptionType returns the class name of the exception a Python traceback
// ends with, without its module ("AssertionError", "ModuleNotFoundError",
// "CustomError" for "pkg.errors.CustomError"), or "" when text holds no
// traceback. With chained exceptions it is the last one raised. The
// exception line is the first line at column 0 after the last "Traceback
// (most recent call last):" line, so a multi-line message does not confuse
// it (unlike AdaptEval's artifact, which takes the first line containing
// "Error:", a line of source code included).
func ExceptionType(text string) string {
	line := ExceptionLine(text)
	if line == "" {
		return ""
	}
	name, _, _ := strings.Cut(line, ":")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// ExceptionLine returns the line that names the exception a Python
// traceback ends with ("ModuleNotFoundError: No module named 'x'"), or ""
// when text holds no traceback.
func ExceptionLine(text string) string {
	const head = "Traceback (most recent call last):"
	i := strings.LastIndex(text, head)
	if i < 0 {
		return ""
	}
	rest := text[i+len(head):]
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimRight(l, "\r")
		if l == "" || l[0] == ' ' || l[0] == '\t' {
			continue
		}
		if !isExceptionName(l) {
			return ""
		}
		return l
	}
	return ""
}

// isExceptionName reports whether line starts with a dotted Python name
// followed by ":" or the end of the line.
func isExceptionName(line string) bool {
	name, _, _ := strings.Cut(line, ":")
	if name == "" {
		return false
	}
	for _, part := range strings.Split(name, ".") {
		if part == "" {
			return false
		}
		for j, r := range part {
			if !(r == '_' || unicode.IsLetter(r) || (j > 0 && unicode.IsDigit(r))) {
				return false
			}
		}
	}
	return true
}
