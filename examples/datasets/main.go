// Datasets fetches the published datasets the tests and examples read
// (HumanEval, ClassEval, GitChameleon, AdaptEval) at the commits they were
// taken from, with go-git, checks every file against its SHA-256, and
// writes each into a directory of its own:
//
//	go run ./examples/datasets                       # into ~/.cache/adaptbench/data
//	go run ./examples/datasets -out ../shared/data
//	export ADAPTBENCH_DATA=$PWD/../shared/data   # where it is not ../shared/data
//
// The tests and examples read $ADAPTBENCH_DATA, or ../shared/data beside
// the checkout when it is unset. On a machine that reaches no git host,
// -mirror DIR reads local mirrors instead (DIR/openai/human-eval.git, …,
// as `git clone --mirror` makes them).
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

func main() {
	log.SetFlags(0)
	out := flag.String("out", defaultOut(), "directory to write the datasets into (one directory each), created if need be")
	mirror := flag.String("mirror", "", "directory of local mirrors (OWNER/REPO.git) to read instead of the network")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := fetch(ctx, *out, *mirror, published, log.Printf); err != nil {
		log.Fatalf("datasets: %v", err)
	}
	log.Printf("datasets: written to %s; set ADAPTBENCH_DATA=%s where it is not ../shared/data beside the checkout", *out, *out)
}

// defaultOut is where the datasets go unless -out says: the user's cache
// (where the test command fetches them too), not the current directory.
func defaultOut() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "adaptbench-data"
	}
	return filepath.Join(dir, "adaptbench", "data")
}
