package adapt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Base is a workspace that many tasks share: the files of a code base at
// one state, stored once and named by the digest of its content. A task
// whose Base is set lays its own Files and its Target over it, so that a
// task made from a real project holds only what it changes, not a copy of
// every project file.
//
// A Base is immutable and content-addressed: its Digest is the SHA-256 of
// a canonical encoding of its files (sorted by path, each path and content
// length-prefixed), "sha256:<hex>". WriteTasks writes each base once, as a
// line of its own before the first task that uses it, and tasks refer to
// it by digest; ReadTasks and LoadDir hash every base they read again and
// refuse one whose files do not give its digest (a base that was edited or
// cut short is never used). A task's hash in a journal covers its base's
// digest: the same task with its base copied into Files is another task to
// a journal. A Base decoded from JSON on its own holds only
// its digest until ReadTasks or LoadDir resolves it; such a task does not
// validate.
type Base struct {
	digest   string
	files    []File // sorted by path
	resolved bool
}

// ErrBase is wrapped by errors about a task's base: one that is missing,
// not loaded, or whose files do not give its digest.
var ErrBase = errors.New("adapt: task base")

// baseDigest is the form of a Base's digest.
var baseDigest = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// NewBase makes a base of files, which must have safe, distinct relative
// paths and UTF-8 text contents (the task format holds text: any other
// bytes would not survive it, and the digest would no longer match).
// The files are copied and sorted by path; their contents are shared.
func NewBase(files []File) (*Base, error) {
	fs := slices.Clone(files)
	slices.SortFunc(fs, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	for i, f := range fs {
		if err := checkPath(f.Path); err != nil {
			return nil, fmt.Errorf("%w: file: %v", ErrBase, err)
		}
		if strings.ContainsRune(f.Path, 0) {
			return nil, fmt.Errorf("%w: file %q: a NUL in its path", ErrBase, f.Path)
		}
		if i > 0 && fs[i-1].Path == f.Path {
			return nil, fmt.Errorf("%w: file %q appears twice", ErrBase, f.Path)
		}
		if !utf8.ValidString(f.Content) {
			return nil, fmt.Errorf("%w: file %q is not UTF-8 text (a task holds text files only)", ErrBase, f.Path)
		}
	}
	h := sha256.New()
	h.Write([]byte("adaptbench-base/v1\n"))
	for _, f := range fs {
		h.Write([]byte(f.Path))
		h.Write([]byte{0})
		h.Write(strconv.AppendInt(nil, int64(len(f.Content)), 10))
		h.Write([]byte{'\n'})
		h.Write([]byte(f.Content))
	}
	return &Base{digest: "sha256:" + hex.EncodeToString(h.Sum(nil)), files: fs, resolved: true}, nil
}

// Digest names the base by its content: "sha256:<64 hex digits>".
func (b *Base) Digest() string { return b.digest }

// Files returns the base's files, sorted by path (a new slice; the
// contents are shared). A base not resolved yet has none.
func (b *Base) Files() []File { return slices.Clone(b.files) }

// Len returns the number of files.
func (b *Base) Len() int { return len(b.files) }

// Size returns the total bytes of the files' contents.
func (b *Base) Size() int {
	n := 0
	for _, f := range b.files {
		n += len(f.Content)
	}
	return n
}

// has reports whether the base holds a file at path.
func (b *Base) has(path string) bool {
	_, ok := b.file(path)
	return ok
}

// file returns the content of the base's file at path.
func (b *Base) file(path string) (string, bool) {
	i, ok := slices.BinarySearchFunc(b.files, path, func(f File, p string) int { return strings.Compare(f.Path, p) })
	if !ok {
		return "", false
	}
	return b.files[i].Content, true
}

// Equal reports whether two bases have the same digest (the same files):
// tasks sharing a base compare equal to tasks holding an equal copy.
func (b *Base) Equal(o *Base) bool {
	if b == nil || o == nil {
		return b == o
	}
	return b.digest == o.digest
}

// MarshalJSON writes the digest: a task refers to its base, which is
// written once on its own (WriteTasks).
func (b *Base) MarshalJSON() ([]byte, error) {
	if !baseDigest.MatchString(b.digest) {
		return nil, fmt.Errorf("%w: a Base not made by NewBase", ErrBase)
	}
	return json.Marshal(b.digest)
}

// UnmarshalJSON reads a digest; the base's files come from ReadTasks or
// LoadDir, which resolve it.
func (b *Base) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: want a digest string: %v", ErrBase, err)
	}
	if !baseDigest.MatchString(s) {
		return fmt.Errorf("%w: digest %q (want sha256:<64 lowercase hex digits>)", ErrBase, s)
	}
	*b = Base{digest: s}
	return nil
}

// WorkspaceFiles returns the files of the task's workspace other than its
// target: its base's files, with the task's own Files in place of those at
// the same path and added after them, sorted by path. Without a base it is
// a copy of Files.
func (t *Task) WorkspaceFiles() []File {
	if t.Base == nil {
		return slices.Clone(t.Files)
	}
	own := map[string]bool{t.Target.Path: true}
	for _, f := range t.Files {
		own[f.Path] = true
	}
	out := make([]File, 0, len(t.Base.files)+len(t.Files))
	for _, f := range t.Base.files {
		if !own[f.Path] {
			out = append(out, f)
		}
	}
	out = append(out, t.Files...)
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// bases interns the bases of a task set by digest, so that tasks read
// together share one copy of each.
type bases map[string]*Base

// add records a base read from a line or a directory: its files must give
// the digest it was stored under.
func (bs bases) add(stored string, files []File) (*Base, error) {
	b, err := NewBase(files)
	if err != nil {
		return nil, fmt.Errorf("base %s: %w", stored, err)
	}
	if b.digest != stored {
		return nil, fmt.Errorf("%w %s: its files hash to %s: the base was edited or cut short, and is not used", ErrBase, stored, b.digest)
	}
	if have := bs[stored]; have != nil {
		return have, nil
	}
	bs[stored] = b
	return b, nil
}

// resolve gives t the base its digest names.
func (bs bases) resolve(t *Task) error {
	if t.Base == nil || t.Base.resolved {
		return nil
	}
	b := bs[t.Base.digest]
	if b == nil {
		return fmt.Errorf("%w: task %q uses base %s, which is not in the input", ErrBase, t.ID, t.Base.digest)
	}
	t.Base = b
	return nil
}
