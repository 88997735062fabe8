//go:build !linux

package exec

import (
	"fmt"
	"os"
	"path/filepath"
)

// openBeneath opens rel beneath dir, refusing links and anything but a
// regular file (checked with Lstat: racy where the kernel gives no
// openat2; the sandbox does not run here anyway).
func openBeneath(dir, rel string) (*os.File, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s", errUnsafeFile, rel)
	}
	return os.Open(p)
}
