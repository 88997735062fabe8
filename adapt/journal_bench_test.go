package adapt

import (
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/adapt/internal/store"
	"github.com/adaptbench/adaptbench/adapt/report"

	"github.com/adaptbench/adaptbench/exec"
)

// benchRecord is a typical result line: one sample's check with its
// answer and a test.
func benchRecord() journalRecord {
	code := strings.Repeat("    x = compute(x, y) + 1\n", 40)
	return journalRecord{Kind: "result", Task: "adapteval/1234", TaskHash: "0123456789abcdef", Sample: 3, Result: &report.SampleResult{
		Sample: 3, Outcome: report.OutcomeFailed, Code: code, Detail: strings.Repeat("AssertionError: 3 != 4\n", 10),
		Tests: []report.TestOutcome{{Name: "test_m.T.test_f", Status: exec.TestFailed, Message: "AssertionError: 3 != 4", ErrorType: "AssertionError"}},
	}}
}

// BenchmarkJournalLine: the checksummed, byte-keeping line against the
// plain JSON line it is made from (ratio = Record/Plain).
func BenchmarkJournalLine(b *testing.B) {
	rec := benchRecord()
	b.Run("Plain", func(b *testing.B) {
		for b.Loop() {
			marshalLine(rec)
		}
	})
	c := store.Chain{ID: "0123456789abcdef0123456789abcdef", Prev: "0123456789abcdef"}
	b.Run("Record", func(b *testing.B) {
		for b.Loop() {
			body, _ := marshalBody(rec)
			c.Sign(body)
		}
	})
	body, _ := marshalBody(rec)
	line, _ := c.Sign(body)
	b.Run("Check", func(b *testing.B) {
		for b.Loop() {
			c.Check(line[:len(line)-1])
		}
	})
}
