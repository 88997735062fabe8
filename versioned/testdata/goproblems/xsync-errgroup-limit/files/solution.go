package solution

import "golang.org/x/sync/errgroup"

// ProcessLimited calls fn on every item, concurrently but with at most
// limit calls in flight at any time, and returns the first error.
func ProcessLimited(items []int, limit int, fn func(int) error) error {
	var g errgroup.Group
	g.SetLimit(limit)
	for _, it := range items {
		g.Go(func() error { return fn(it) })
	}
	return g.Wait()
}
