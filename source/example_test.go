package source_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adaptbench/adaptbench/source"
)

// Open a repository at a revision and read a file as it was in that
// commit, while the working tree holds a newer version.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "source-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// A repository with two commits of data.jsonl, made with go-git.
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		log.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		log.Fatal(err)
	}
	for i, data := range []string{`{"id": 1}`, `{"id": 2}`} {
		if err := os.WriteFile(filepath.Join(dir, "data.jsonl"), []byte(data+"\n"), 0o644); err != nil {
			log.Fatal(err)
		}
		if _, err := wt.Add("data.jsonl"); err != nil {
			log.Fatal(err)
		}
		sig := &object.Signature{Name: "example", Email: "example@adaptbench.invalid", When: time.Date(2024, 1, 1, i, 0, 0, 0, time.UTC)}
		if _, err := wt.Commit(fmt.Sprintf("data %d", i+1), &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			log.Fatal(err)
		}
	}

	snap, err := source.Open(context.Background(), dir, "HEAD~1")
	if err != nil {
		log.Fatal(err)
	}
	b, err := fs.ReadFile(snap, "data.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("commit %s: %s", snap.Commit(), b)

	_, err = source.Open(context.Background(), dir, "v9")
	fmt.Println(err != nil, errors.Is(err, source.ErrRevision))
	// Output:
	// commit 319a59e6d705bd9a54cfe1a91a9375627eb1d9e7: {"id": 1}
	// true true
}
