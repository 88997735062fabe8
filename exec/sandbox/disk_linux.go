package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec"
)

// diskWorkspace is a Sandbox job's workspace on a tmpfs of Limits.Disk
// bytes and Limits.DiskFiles entries. The tmpfs is created here as a
// detached mount (never attached to the host's tree: nothing is left if
// this process dies), filled with a copy of the host workspace, handed to
// the job's init to mount at WorkDir, and copied back once every process of
// the job is gone. So the job never touches the host workspace, and what
// it writes is bounded whatever the memory limit.
type diskWorkspace struct {
	mfd  int      // the detached tmpfs
	tmp  *os.Root // its root
	host *os.Root // the caller's workspace
	in   map[string]fileSig
}

// fileSig is what copy-back compares to tell a changed entry.
type fileSig struct {
	mode  fs.FileMode
	size  int64
	mtime int64
}

func sigOf(fi fs.FileInfo) fileSig {
	return fileSig{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// newDiskWorkspace makes the tmpfs and copies dir into it, giving every
// copy to uid.
func newDiskWorkspace(dir string, size exec.Size, files, uid int) (_ *diskWorkspace, err error) {
	d := &diskWorkspace{mfd: -1, in: map[string]fileSig{}}
	defer func() {
		if err != nil {
			d.close()
			err = fmt.Errorf("exec: disk workspace: %w", err)
		}
	}()
	fsfd, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("fsopen tmpfs: %w", err)
	}
	defer unix.Close(fsfd)
	for k, v := range map[string]string{"size": strconv.FormatUint(uint64(size), 10), "nr_inodes": strconv.Itoa(files), "mode": "0755"} {
		if err := unix.FsconfigSetString(fsfd, k, v); err != nil {
			return nil, fmt.Errorf("tmpfs %s=%s: %w", k, v, err)
		}
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return nil, fmt.Errorf("create tmpfs: %w", err)
	}
	if d.mfd, err = unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV); err != nil {
		return nil, fmt.Errorf("fsmount: %w", err)
	}
	if d.tmp, err = os.OpenRoot(fmt.Sprintf("/proc/self/fd/%d", d.mfd)); err != nil {
		return nil, err
	}
	if d.host, err = os.OpenRoot(dir); err != nil {
		return nil, err
	}
	if err := d.tmp.Chown(".", uid, uid); err != nil {
		return nil, err
	}
	// The caller's workspace: directories, regular files and symbolic
	// links (copied as links, never followed); nothing else.
	err = fs.WalkDir(d.host.FS(), ".", func(rel string, e fs.DirEntry, err error) error {
		if err != nil || rel == "." {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			err = d.tmp.Mkdir(rel, fi.Mode().Perm()|0o700)
		case fi.Mode().IsRegular():
			err = copyFile(d.host, d.tmp, rel, fi.Mode().Perm())
		case fi.Mode()&fs.ModeSymlink != 0:
			var target string
			if target, err = d.host.Readlink(rel); err == nil {
				err = d.tmp.Symlink(target, rel)
			}
		default:
			return nil
		}
		if err != nil {
			if errors.Is(err, unix.ENOSPC) {
				return fmt.Errorf("the workspace %s does not fit in Limits.Disk (%s, %d files): %w", dir, size, files, err)
			}
			return err
		}
		if err := d.tmp.Lchown(rel, uid, uid); err != nil {
			return err
		}
		if got, err := d.tmp.Lstat(rel); err == nil {
			d.in[rel] = sigOf(got)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// copyFile copies the regular file rel from one root to the other.
//
// It holds syscall.ForkLock for reading while the copy is open for
// writing: a process this one forks in the meantime (an init starting)
// would otherwise hold the descriptor until its exec, and a job that
// executes the copy (a Go test binary) would fail with "text file busy".
func copyFile(from, to *os.Root, rel string, perm fs.FileMode) error {
	src, err := from.OpenFile(rel, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer src.Close()
	if fi, err := src.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", rel)
	}
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	dst, err := to.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|unix.O_NOFOLLOW, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// full reports whether the job used up the space or the entries of its
// workspace.
func (d *diskWorkspace) full() bool {
	var st unix.Statfs_t
	if err := unix.Fstatfs(d.mfd, &st); err != nil {
		return false
	}
	return st.Bavail == 0 || st.Ffree == 0
}

// copyBack makes the host workspace what the job left: new and changed
// directories, regular files and links are copied, entries the job removed
// are removed. Anything else (a FIFO, a socket) is not copied and is named
// in the result. Called when no process of the job is left, so nothing in
// the tmpfs changes under it; the host side is reached through os.Root,
// which never leaves the workspace.
func (d *diskWorkspace) copyBack() (notCopied []string, err error) {
	now := map[string]bool{}
	err = fs.WalkDir(d.tmp.FS(), ".", func(rel string, e fs.DirEntry, err error) error {
		if err != nil {
			notCopied = append(notCopied, rel)
			if e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if rel == "." {
			return nil
		}
		now[rel] = true
		fi, err := e.Info()
		if err != nil {
			notCopied = append(notCopied, rel)
			return nil
		}
		if was, ok := d.in[rel]; ok && was == sigOf(fi) && !fi.IsDir() {
			return nil
		}
		hostFi, hostErr := d.host.Lstat(rel)
		switch {
		case fi.IsDir():
			if hostErr == nil && hostFi.IsDir() {
				return nil
			}
			if hostErr == nil {
				d.host.RemoveAll(rel)
			}
			if err := d.host.Mkdir(rel, fi.Mode().Perm()|0o700); err != nil {
				notCopied = append(notCopied, rel)
				return fs.SkipDir
			}
		case fi.Mode().IsRegular():
			if hostErr == nil && !hostFi.Mode().IsRegular() {
				d.host.RemoveAll(rel)
			}
			if err := copyFile(d.tmp, d.host, rel, fi.Mode().Perm()|0o600); err != nil {
				notCopied = append(notCopied, rel)
			}
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := d.tmp.Readlink(rel)
			if err == nil {
				if hostErr == nil {
					d.host.RemoveAll(rel)
				}
				err = d.host.Symlink(target, rel)
			}
			if err != nil {
				notCopied = append(notCopied, rel)
			}
		default:
			notCopied = append(notCopied, rel)
		}
		return nil
	})
	// What the job removed: only the topmost of a removed tree is removed
	// here, and goes with what was in it.
	for rel := range d.in {
		if now[rel] {
			continue
		}
		if parent := filepath.Dir(rel); parent != "." && !now[parent] {
			continue
		}
		d.host.RemoveAll(rel)
	}
	return notCopied, err
}

func (d *diskWorkspace) close() {
	if d.tmp != nil {
		d.tmp.Close()
	}
	if d.host != nil {
		d.host.Close()
	}
	if d.mfd >= 0 {
		unix.Close(d.mfd)
	}
}
