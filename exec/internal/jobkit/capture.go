package jobkit

import (
	"fmt"
	"sync"
)

// Buffer keeps the first and last keep/2 bytes written to it and counts the
// rest, like os/exec's prefixSuffixSaver. When the total written across all
// captures sharing a budget exceeds the limit, over is closed once.
type Buffer struct {
	half   int
	prefix []byte
	suffix []byte // ring buffer of the last half bytes
	pos    int    // next write position in suffix once it is full
	total  int64
	budget *Budget
}

// Budget counts the bytes of stdout and stderr together.
type Budget struct {
	mu    sync.Mutex
	limit int64
	total int64
	over  chan struct{}
	once  sync.Once
}

// NewBudget returns a budget of limit bytes; a negative limit is none.
func NewBudget(limit int64) *Budget {
	return &Budget{limit: limit, over: make(chan struct{})}
}

func (b *Budget) add(n int) {
	b.mu.Lock()
	b.total += int64(n)
	exceeded := b.limit >= 0 && b.total > b.limit
	b.mu.Unlock()
	if exceeded {
		b.once.Do(func() { close(b.over) })
	}
}

// Over is closed once the captures sharing b wrote more than its limit.
func (b *Budget) Over() <-chan struct{} { return b.over }

// Exceeded reports whether the captures sharing b wrote more than its limit.
func (b *Budget) Exceeded() bool {
	select {
	case <-b.over:
		return true
	default:
		return false
	}
}

// NewBuffer returns a Buffer keeping keep bytes, counting against budget (nil:
// none).
func NewBuffer(keep int64, budget *Budget) *Buffer {
	return &Buffer{half: int(keep / 2), budget: budget}
}

// Write keeps what fits and counts the rest; it never fails.
func (c *Buffer) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	if c.budget != nil {
		c.budget.add(n)
	}
	if room := c.half - len(c.prefix); room > 0 {
		k := min(room, len(p))
		c.prefix = append(c.prefix, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		if len(c.suffix) < c.half {
			k := min(c.half-len(c.suffix), len(p))
			c.suffix = append(c.suffix, p[:k]...)
			p = p[k:]
			continue
		}
		if len(p) >= c.half {
			// Only the last half bytes of p can survive.
			copy(c.suffix, p[len(p)-c.half:])
			c.pos = 0
			break
		}
		k := copy(c.suffix[c.pos:], p)
		p = p[k:]
		c.pos = (c.pos + k) % c.half
	}
	return n, nil
}

// Total is how many bytes were written, kept or not.
func (c *Buffer) Total() int64 { return c.total }

// Bytes returns what was kept, with a marker where bytes were dropped.
func (c *Buffer) Bytes() []byte {
	if c.total == 0 {
		return nil
	}
	kept := int64(len(c.prefix) + len(c.suffix))
	out := make([]byte, 0, kept+64)
	out = append(out, c.prefix...)
	if dropped := c.total - kept; dropped > 0 {
		out = fmt.Appendf(out, "\n... [%d bytes omitted] ...\n", dropped)
	}
	out = append(out, c.suffix[c.pos:]...)
	out = append(out, c.suffix[:c.pos]...)
	return out
}
