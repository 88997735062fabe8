//go:build !unix

package exec

import (
	"errors"
	"os"
)

// lockFile is not implemented here: callers go without what it guards.
func lockFile(f *os.File) (unlock func(), err error) {
	return nil, errors.New("exec: file locks need a Unix system")
}
