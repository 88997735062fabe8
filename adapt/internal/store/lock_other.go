//go:build !unix

package store

import "os"

// Lock does nothing where there is no flock.
func Lock(f *os.File, exclusive bool) error { return nil }
