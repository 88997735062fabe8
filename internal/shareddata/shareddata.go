// Package shareddata finds the published datasets for the tests and
// examples that read them: $ADAPTBENCH_DATA when it is set, else
// shared/data beside the checkout (../shared/data in development and CI).
// A test skips with a clear message where they are absent, and fails
// instead when ADAPTBENCH_REQUIRE_DATA=1, as the test command sets.
// `go run ./examples/datasets -out DIR` fetches them.
package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Env names the variable that says where the datasets are.
const Env = "ADAPTBENCH_DATA"

// Dir returns $ADAPTBENCH_DATA/<rel> when the variable is set, else
// shared/data/<rel> found by walking up from the working directory, else
// "" and a message saying how to get the data.
func Dir(rel string) (string, string) {
	if d := os.Getenv(Env); d != "" {
		p := filepath.Join(d, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Sprintf("%s=%s has no %s (fetch the datasets with: go run ./examples/datasets -out %s)", Env, d, rel, d)
		}
		return p, ""
	}
	if dir, err := os.Getwd(); err == nil {
		for {
			p := filepath.Join(dir, "shared", "data", filepath.FromSlash(rel))
			if _, err := os.Stat(p); err == nil {
				return p, ""
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", fmt.Sprintf("the published dataset %s is neither in $%s nor in shared/data above the working directory (fetch them with: go run ./examples/datasets -out DIR, then export %s=DIR)", rel, Env, Env)
}

// Path returns the directory or file <rel> of the datasets (see Dir). It
// skips the test when there is none, or fails it under
// ADAPTBENCH_REQUIRE_DATA=1.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	p, msg := Dir(rel)
	if p != "" {
		return p
	}
	if os.Getenv("ADAPTBENCH_REQUIRE_DATA") == "1" {
		tb.Fatalf("required by ADAPTBENCH_REQUIRE_DATA=1: %s", msg)
	}
	tb.Skip(msg)
	return ""
}
