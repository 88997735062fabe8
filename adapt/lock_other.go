//go:build !unix

package adapt

import (
	"errors"
	"os"
)

// ErrJournalLocked is wrapped when another process holds a journal.
var ErrJournalLocked = errors.New("adapt: journal is in use by another process")

// lockFile does nothing where there is no flock.
func lockFile(f *os.File, exclusive bool) error { return nil }
