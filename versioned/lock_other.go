//go:build !unix

package versioned

import "context"

// lock does nothing where there is no flock: processes must not share a
// cache directory there.
func lock(ctx context.Context, path string) (unlock func(), err error) {
	return func() {}, nil
}
