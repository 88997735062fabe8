package ctxbug

import (
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// BenchmarkLocate measures the identification's syntactic check of one
// variant (GumTree matching, bug locations, token alignment) against the
// parsing of the two methods it needs anyway, in the same run, and
// reports the ratio.
func BenchmarkLocate(b *testing.B) {
	a := []byte("def withdraw(self, amount, note='cash'):\n    if amount <= 0 or amount > self.balance:\n        raise ValueError('bad amount')\n    fee = round(amount * 0.01, 2)\n    self.balance -= amount + fee\n    self.history.append((note, -amount, fee))\n    return self.balance\n")
	v := []byte("def withdraw(self, amount, note='cash'):\n    if amount <= 0 or amount > self.balance:\n        raise ValueError('bad amount')\n    fee = round(amount * 0.02, 2)\n    self.balance -= amount - fee\n    self.history.append((note, -amount, fee))\n    return self.balance\n")
	holes := []Hole{{Start: 150, End: 154}, {Start: 186, End: 187}}
	if got := string(a[150:154]) + string(a[186:187]); got != "0.01+" {
		b.Fatalf("holes at %q", got)
	}
	parse := func() {
		syntax.ParseNodes(syntax.Python, a)
		syntax.ParseNodes(syntax.Python, v)
	}
	locate := func() {
		c, _ := compare(a, v)
		c.bugs(holes)
		c.align(holes)
	}
	timeIt := func(f func(), n int) time.Duration {
		start := time.Now()
		for range n {
			f()
		}
		return time.Since(start)
	}
	var base, full time.Duration
	for b.Loop() {
		base += timeIt(parse, 1)
		full += timeIt(locate, 1)
	}
	b.ReportMetric(float64(full)/float64(base), "x-parse")
}
