// Package journalfile holds the file mechanics of adapt's run journal that
// need nothing of adapt's types: the lock that keeps two runs from
// appending to one journal, the checksum chain that ties each line to
// the journal and the line before it, and the text every line's words are
// filed as. Package adapt keeps the records and how a run resumes from
// them; the format is described beside its version there.
package journalfile

import "errors"

// ErrLocked is wrapped when another process holds a journal (adapt's
// ErrJournalLocked is this error).
var ErrLocked = errors.New("adapt: journal is in use by another process")
