//go:build !unix

package adapt

import "os"

// lockFile does nothing where there is no flock.
func lockFile(f *os.File, exclusive bool) error { return nil }
