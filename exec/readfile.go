package exec

import (
	"errors"
	"fmt"
	"io"
)

// errUnsafeFile is wrapped by ReadWorkspaceFile when the path is not a
// regular file reached without a symbolic link: what a job would leave to
// make the host read something else (a link to a host file, a FIFO that
// never ends, a device).
var errUnsafeFile = errors.New("exec: not a regular file inside the workspace")

// errFileTooLarge is wrapped by ReadWorkspaceFile when the file holds more
// than the limit; the first limit bytes are returned with it.
var errFileTooLarge = errors.New("exec: file larger than the limit")

// ReadWorkspaceFile reads the file at rel (slash-separated, relative)
// beneath the workspace dir after a job ran there. A job controls
// everything in its workspace, so the host never resolves a path the job
// could have written as an ordinary open would: no component of rel may be
// a symbolic link or leave dir (errUnsafeFile), the file must be a regular
// file (a FIFO, a socket or a device is errUnsafeFile, and opening never
// blocks), and at most limit bytes are read (errFileTooLarge past them,
// with the first limit bytes). A missing file is an error matching
// fs.ErrNotExist. dir itself is the caller's and is opened as usual.
func ReadWorkspaceFile(dir, rel string, limit Size) ([]byte, error) {
	f, err := openBeneath(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("exec: read %s in the workspace: %w", rel, err)
	}
	if Size(len(b)) > limit {
		return b[:limit], fmt.Errorf("%w: %s holds more than %s", errFileTooLarge, rel, limit)
	}
	return b, nil
}
