package solution

import (
	"fmt"

	"golang.org/x/sync/errgroup"
)

// RunAll runs every function concurrently in an errgroup.Group and
// returns the first error. A function that panics does not crash the
// program: RunAll returns an error that holds the panic value.
func RunAll(fns []func() error) (err error) {
	defer func() {
		switch p := recover().(type) {
		case nil:
		case errgroup.PanicError:
			err = fmt.Errorf("task panicked: %w", p.Recovered)
		case errgroup.PanicValue:
			err = fmt.Errorf("task panicked: %v", p.Recovered)
		default:
			panic(p)
		}
	}()
	var g errgroup.Group
	for _, f := range fns {
		g.Go(f)
	}
	return g.Wait()
}
