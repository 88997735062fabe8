// Package source reads published data at a pinned commit of a git
// repository, with go-git and without a working checkout, so that what a
// benchmark scored can be named exactly: a repository and a commit hash.
//
// Every system this SDK implements starts from a repository at a commit:
// AdaptEval's and GitChameleon's data, the projects mutate studies, the
// modules versioned conditions on. The loaders take such a repository and
// a revision and record both in every task's adapt.Provenance (Repo,
// Commit; Source stays the path inside the repository).
//
// # Snapshots
//
// [Open] resolves a revision (a branch, a tag, a full or abbreviated
// hash, HEAD~1: what git rev-parse takes and go-git resolves) in a
// repository named by a local path (a worktree, a linked worktree, a bare
// repository or a mirror, read in place) or by a URL (cloned into memory,
// every branch and tag, no working tree) and returns a [Snapshot]:
//
//	snap, err := source.Open(ctx, "/data/AdaptEval.git", "v1.0")
//	b, err := fs.ReadFile(snap, "metadata.json") // the file at that commit
//	snap.Repo(), snap.Commit()                   // "/data/AdaptEval.git", 40 hex digits
//
// A Snapshot is an io/fs file system over the commit's tree, read
// straight from the object store (fs.ReadFileFS, fs.ReadDirFS,
// fs.StatFS, fs.ReadLinkFS), so every loader that reads an fs.FS reads a
// pinned revision unchanged. Symbolic links are followed as the kernel
// would follow them, but only inside the tree; a link that leads out of
// it (absolute, or through ".." above the root, even by way of another
// link) is an error wrapping [ErrUnsafePath]. Files are read whole; all
// entries have the commit's time as their modification time, and the
// executable bit is the one permission kept. A submodule reads as an
// empty directory. A Snapshot is safe for concurrent use.
//
// [Snapshot.Materialize] writes the tree, or one directory of it, into a
// directory for tools that need real files (a build, a test run): modes
// kept, links kept as links, and nothing written or linked outside the
// target whatever the repository holds (writes go through an os.Root;
// links that resolve out of the subtree, ".git" entries and malformed
// trees are refused with ErrUnsafePath naming the entry).
//
// # Errors
//
// [Open] returns an [*Error] naming the repository and the revision,
// wrapping [ErrNotRepository] (a path that is not a repository),
// [ErrRevision] (a revision that names no commit, or an empty one: a
// pinned source always names its revision) or [ErrFetch] (a URL that
// could not be cloned; when the network is unreachable the message says
// so, and to pass a local mirror instead). A URL's credentials never
// appear in errors or in Repo.
//
// # Provenance
//
// This package imports nothing else of the SDK (it is plumbing, like
// exec): package adapt does not import it either, so that importing adapt
// does not pull in go-git. A loader opens a snapshot, reads it as an
// fs.FS, and records snap.Repo() and snap.Commit() in the tasks'
// adapt.Provenance; adapteval, classeval and humaneval each have a
// LoadRevision that does exactly that.
//
// The module's tests build their repositories with internal/testenv
// (go-git, commit by commit, with fixed authors and times so that hashes
// are the same on every run).
package source
