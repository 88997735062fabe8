package exec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// openBeneath opens rel beneath dir with openat2: no symbolic link, no
// magic link (/proc/*/fd), no mount crossing, nothing outside dir; then
// checks that it opened a regular file. O_NONBLOCK keeps a FIFO from
// blocking the open.
func openBeneath(dir, rel string) (*os.File, error) {
	if rel == "" || path.IsAbs(rel) || strings.Contains(rel, "\x00") {
		return nil, fmt.Errorf("%w: bad path %q", errUnsafeFile, rel)
	}
	dfd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("exec: open workspace %s: %w", dir, err)
	}
	defer unix.Close(dfd)
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	}
	var fd int
	for {
		fd, err = unix.Openat2(dfd, rel, &how)
		if err != unix.EINTR && err != unix.EAGAIN {
			break
		}
	}
	switch {
	case err == unix.ENOSYS:
		fd, err = openBeneathWalk(dfd, rel)
		if err != nil {
			return nil, err
		}
	case errors.Is(err, unix.ENOENT):
		return nil, fmt.Errorf("exec: %s in the workspace: %w", rel, fs.ErrNotExist)
	case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ENXIO):
		return nil, fmt.Errorf("%w: %s (%v)", errUnsafeFile, rel, err)
	case err != nil:
		return nil, fmt.Errorf("exec: open %s in the workspace: %w", rel, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("exec: stat %s in the workspace: %w", rel, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, fmt.Errorf("%w: %s is not a regular file (mode %#o)", errUnsafeFile, rel, st.Mode&unix.S_IFMT)
	}
	return os.NewFile(uintptr(fd), path.Join(dir, rel)), nil
}

// openBeneathWalk is openBeneath for kernels without openat2 (before
// 5.6): one openat per component, none followed if it is a link.
func openBeneathWalk(dfd int, rel string) (int, error) {
	parts := strings.Split(path.Clean(rel), "/")
	cur, err := unix.Dup(dfd)
	if err != nil {
		return -1, err
	}
	for i, p := range parts {
		if p == ".." || p == "." || p == "" {
			unix.Close(cur)
			return -1, fmt.Errorf("%w: bad path %q", errUnsafeFile, rel)
		}
		flags := unix.O_NOFOLLOW | unix.O_CLOEXEC
		if i < len(parts)-1 {
			flags |= unix.O_PATH | unix.O_DIRECTORY
		} else {
			flags |= unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY
		}
		next, err := unix.Openat(cur, p, flags, 0)
		unix.Close(cur)
		if errors.Is(err, unix.ENOENT) {
			return -1, fmt.Errorf("exec: %s in the workspace: %w", rel, fs.ErrNotExist)
		}
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return -1, fmt.Errorf("%w: %s (%v)", errUnsafeFile, rel, err)
		}
		if err != nil {
			return -1, fmt.Errorf("exec: open %s in the workspace: %w", rel, err)
		}
		cur = next
	}
	return cur, nil
}
