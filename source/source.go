package source

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Errors that Open and Snapshot's methods wrap, for errors.Is.
var (
	// ErrNotRepository: the path is not a git repository (neither a
	// worktree with a .git nor a bare repository).
	ErrNotRepository = errors.New("not a git repository")
	// ErrRevision: the revision names no commit of the repository.
	ErrRevision = errors.New("revision not found")
	// ErrFetch: a repository named by URL could not be fetched; the
	// error says whether the network looked unreachable.
	ErrFetch = errors.New("cannot fetch repository")
	// ErrUnsafePath: materializing the tree would write outside the
	// target directory (a symbolic link that leads out of it, an entry
	// named "..", ".git" or with a slash), or the tree is malformed.
	ErrUnsafePath = errors.New("unsafe path in tree")
)

// Error is the error Open returns: the repository, the revision (when
// one was being resolved) and what went wrong, which wraps one of the
// package's sentinel errors or the underlying cause.
type Error struct {
	Repo string // as Snapshot.Repo gives it: a URL without credentials
	Rev  string // "" when the failure came before resolving one
	Err  error
}

func (e *Error) Error() string {
	if e.Rev == "" {
		return fmt.Sprintf("source: %s: %v", e.Repo, e.Err)
	}
	return fmt.Sprintf("source: %s at %q: %v", e.Repo, e.Rev, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Snapshot is the tree of one commit of a repository, read from the
// object store without a working checkout. It implements fs.FS,
// fs.ReadFileFS, fs.ReadDirFS, fs.StatFS and fs.ReadLinkFS, and is safe
// for concurrent use.
type Snapshot struct {
	repo   string
	commit *object.Commit

	mu   sync.Mutex // guards r and dirs: go-git's storers are not safe for concurrent use
	r    *git.Repository
	dirs map[plumbing.Hash][]entry // decoded, checked and sorted trees
}

// Open resolves rev in the repository repo and returns the snapshot of
// that commit's tree.
//
// repo is a local path (a worktree, whose .git may be a linked
// worktree's gitdir file, or a bare repository or mirror) or a URL
// (https://, ssh://, git://, file:// or scp-like user@host:path), which
// is cloned into memory, all branches and tags, with no working tree. ctx
// bounds the clone; a local repository is read in place. rev is anything
// git rev-parse takes for a commit that go-git resolves: a branch, a tag
// (lightweight or annotated), a full or abbreviated hash, HEAD, HEAD~1,
// v1.0^2. An empty rev is an error: a pinned source names its revision.
//
// A path that is not a repository wraps ErrNotRepository, a revision
// that names no commit ErrRevision, a URL that cannot be fetched ErrFetch;
// each error is an *Error naming the repository and revision.
func Open(ctx context.Context, repo, rev string) (*Snapshot, error) {
	shown := redact(repo)
	fail := func(rv string, err error) (*Snapshot, error) {
		return nil, &Error{Repo: shown, Rev: rv, Err: err}
	}
	if repo == "" {
		return fail("", errors.New("empty repository name"))
	}
	if strings.TrimSpace(rev) == "" {
		return fail("", fmt.Errorf("%w: empty revision (name a branch, a tag or a commit; HEAD for the current one)", ErrRevision))
	}
	var (
		r   *git.Repository
		err error
	)
	if isURL(repo) {
		r, err = clone(ctx, repo)
		if err != nil {
			return fail("", err)
		}
	} else {
		if _, err := os.Stat(repo); err != nil {
			return fail("", err)
		}
		r, err = git.PlainOpenWithOptions(repo, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
		if errors.Is(err, git.ErrRepositoryNotExists) {
			return fail("", fmt.Errorf("%w (no .git here, and not a bare repository)", ErrNotRepository))
		}
		if err != nil {
			return fail("", fmt.Errorf("%w: %v", ErrNotRepository, err))
		}
	}
	h, err := r.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return fail(rev, fmt.Errorf("%w: %v", ErrRevision, err))
	}
	c, err := r.CommitObject(*h)
	if err != nil {
		return fail(rev, fmt.Errorf("%w: %s is not a commit: %v", ErrRevision, h, err))
	}
	s := &Snapshot{repo: shown, commit: c, r: r, dirs: map[plumbing.Hash][]entry{}}
	if _, err := s.entries(s.rootEntry()); err != nil {
		return fail(rev, fmt.Errorf("commit %s: reading its tree: %w", c.Hash, err))
	}
	return s, nil
}

// scpLike matches git's scp-like syntax, user@host:path.
var scpLike = regexp.MustCompile(`^[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:`)

// isURL reports whether Open treats repo as a URL to clone rather than a
// local path: it has a scheme (https://, file://) or is scp-like
// (git@github.com:owner/name).
func isURL(repo string) bool {
	return strings.Contains(repo, "://") || scpLike.MatchString(repo)
}

// redact drops the credentials of a URL, so that a token never reaches
// a task's provenance or an error message.
func redact(repo string) string {
	if !strings.Contains(repo, "://") {
		return repo
	}
	u, err := url.Parse(repo)
	if err != nil || u.User == nil {
		return repo
	}
	u.User = nil
	return u.String()
}

// clone fetches every branch and tag of a remote repository into memory.
func clone(ctx context.Context, u string) (*git.Repository, error) {
	r, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{URL: u, Mirror: true, Tags: git.AllTags})
	if err == nil {
		return r, nil
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w: %w", ErrFetch, ctx.Err())
	}
	var (
		op  *net.OpError
		dns *net.DNSError
		ue  *url.Error
	)
	switch {
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return nil, fmt.Errorf("%w: the remote has no such repository: %v", ErrFetch, err)
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return nil, fmt.Errorf("%w: the remote repository is empty", ErrFetch)
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed):
		return nil, fmt.Errorf("%w: the remote asks for credentials: %v", ErrFetch, err)
	case errors.As(err, &dns), errors.As(err, &op), errors.As(err, &ue):
		return nil, fmt.Errorf("%w: the network looks unreachable from here (%v); clone or mirror the repository where it is reachable and pass its local path", ErrFetch, err)
	}
	return nil, fmt.Errorf("%w: %v", ErrFetch, err)
}

// Repo returns the repository as Open was given it, a URL without its
// credentials.
func (s *Snapshot) Repo() string { return s.repo }

// Commit returns the commit's full hash, in lowercase hex.
func (s *Snapshot) Commit() string { return s.commit.Hash.String() }

// String returns "<repo>@<commit>".
func (s *Snapshot) String() string { return s.repo + "@" + s.Commit() }
