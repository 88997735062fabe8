//go:build unix

package exec

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f, waiting for it; unlock gives it
// back.
func lockFile(f *os.File) (unlock func(), err error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return nil, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
}
