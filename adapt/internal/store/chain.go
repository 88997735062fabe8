package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
)

// Chain is a journal's ID and the checksum of its last line: what the
// checksum of the next line covers.
type Chain struct{ ID, Prev string }

// sum is the checksum of a line whose text without it is body: the first
// 8 bytes, in hex, of the SHA-256 of the journal's ID, the checksum of the
// line before (none for the header) and body. A line edited by hand (a
// "failed" made "passed") or damaged no longer matches it, nor does a
// line copied from another journal (another ID) or moved (another line
// before it); and the line after a deleted one does not. It is not a
// signature: who can write the file can compute it again.
func (c Chain) sum(body []byte) string {
	h := sha256.New()
	h.Write([]byte(c.ID))
	h.Write([]byte{0})
	h.Write([]byte(c.Prev))
	h.Write([]byte{0})
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Sign appends the checksum of body, a JSON object, as its last field,
// and a newline, and returns the chain the next line continues.
func (c Chain) Sign(body []byte) ([]byte, Chain) {
	sum := c.sum(body)
	out := make([]byte, 0, len(body)+32)
	out = append(out, body[:len(body)-1]...)
	out = append(out, `,"sum":"`...)
	out = append(out, sum...)
	return append(out, "\"}\n"...), Chain{ID: c.ID, Prev: sum}
}

// Check checks the checksum Sign gave a line (without its newline) and
// returns the chain the next line continues.
func (c Chain) Check(line []byte) (Chain, error) {
	const tail = len(`,"sum":"0123456789abcdef"}`)
	i := len(line) - tail
	if i < 1 || !bytes.HasPrefix(line[i:], []byte(`,"sum":"`)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return c, errors.New("the line has no checksum")
	}
	body := append(slices.Clip(line[:i]), '}')
	want := string(line[i+len(`,"sum":"`) : len(line)-2])
	if c.sum(body) != want {
		return c, fmt.Errorf("the line does not match its checksum %s", want)
	}
	return Chain{ID: c.ID, Prev: want}, nil
}
