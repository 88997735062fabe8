package adapteval

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// inFileTokens is the artifact's limit for each side of a NoReq in-file
// context, in cl100k_base tokens: the text above the target function keeps
// its last inFileTokens tokens, the text from the marker down its first.
const inFileTokens = 8192

// cl100k loads the cl100k_base encoding once, from the BPE ranks embedded
// in tiktoken-go-loader (no network), the first time a text long enough to
// need truncating is seen: a program that never builds a long NoReq prompt
// never parses the ranks.
var cl100k = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		return nil, fmt.Errorf("adapteval: loading the cl100k_base tokenizer: %w", err)
	}
	return enc, nil
})

// truncateTokens is the artifact's DataUtil.handle_extremely_long_field:
// text encoded with cl100k_base as ordinary text (special-token strings
// are plain text), and when it has more than max tokens, the first max
// tokens (head) or the last max (!head) decoded back. Bytes of a character
// that the cut splits become U+FFFD, as Python's bytes.decode with
// errors="replace" makes them.
func truncateTokens(text string, max int, head bool) (string, error) {
	if len(text) <= max {
		// Every token is at least one byte: nothing to cut, and no need
		// to load the tokenizer.
		return text, nil
	}
	enc, err := cl100k()
	if err != nil {
		return "", err
	}
	toks := enc.EncodeOrdinary(text)
	if len(toks) <= max {
		return text, nil
	}
	if head {
		toks = toks[:max]
	} else {
		toks = toks[len(toks)-max:]
	}
	return replaceInvalidUTF8(enc.Decode(toks)), nil
}

// countTokens returns the number of cl100k_base tokens of text.
func countTokens(text string) (int, error) {
	enc, err := cl100k()
	if err != nil {
		return 0, err
	}
	return len(enc.EncodeOrdinary(text)), nil
}

// replaceInvalidUTF8 replaces invalid UTF-8 as Python's decoder does with
// errors="replace": an incomplete sequence (a lead byte and the
// continuation bytes that follow it, fewer than it needs) is one U+FFFD,
// any other invalid byte one U+FFFD each. (Python also checks the range of
// the second byte after E0, ED, F0 and F4; cutting a valid text between
// tokens cannot produce those cases.)
func replaceInvalidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		need := 0
		switch c := s[i]; {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c >= 0xE0 && c <= 0xEF:
			need = 2
		case c >= 0xF0 && c <= 0xF4:
			need = 3
		}
		j := i + 1
		for k := 0; k < need && j < len(s) && s[j]&0xC0 == 0x80; k++ {
			j++
		}
		b.WriteRune(utf8.RuneError)
		i = j
	}
	return b.String()
}
