// Package store holds what adapt's run engine keeps in files and that
// needs nothing of adapt's types: the journal's mechanics (the lock that
// keeps two runs from appending to one journal, the checksum chain that
// ties each line to the journal and the line before it, the text every
// line's words are filed as) and the reference cache's entries (a check
// kept by a key adapt digests from the task, the runner and the machine).
// Package adapt keeps the journal's records and how a run resumes from
// them; the format is described beside its version there.
package store

import "errors"

// ErrLocked is wrapped when another process holds a journal (adapt's
// ErrJournalLocked is this error).
var ErrLocked = errors.New("adapt: journal is in use by another process")
