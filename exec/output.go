package exec

import (
	"fmt"
	"sync"
)

// capture keeps the first and last keep/2 bytes written to it and counts the
// rest, like os/exec's prefixSuffixSaver. When the total written across all
// captures sharing a budget exceeds the limit, over is closed once.
type capture struct {
	half   int
	prefix []byte
	suffix []byte // ring buffer of the last half bytes
	pos    int    // next write position in suffix once it is full
	total  int64
	budget *outputBudget
}

// outputBudget counts the bytes of stdout and stderr together.
type outputBudget struct {
	mu    sync.Mutex
	limit int64
	total int64
	over  chan struct{}
	once  sync.Once
}

func newOutputBudget(limit Size) *outputBudget {
	return &outputBudget{limit: int64(limit), over: make(chan struct{})}
}

func (b *outputBudget) add(n int) {
	b.mu.Lock()
	b.total += int64(n)
	exceeded := b.limit >= 0 && b.total > b.limit
	b.mu.Unlock()
	if exceeded {
		b.once.Do(func() { close(b.over) })
	}
}

func (b *outputBudget) exceeded() bool {
	select {
	case <-b.over:
		return true
	default:
		return false
	}
}

func newCapture(keep Size, budget *outputBudget) *capture {
	return &capture{half: int(keep / 2), budget: budget}
}

func (c *capture) Write(p []byte) (int, error) {
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

// Bytes returns what was kept, with a marker where bytes were dropped.
func (c *capture) Bytes() []byte {
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
