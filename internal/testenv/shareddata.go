package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// DataEnv names the variable that says where the datasets are.
const DataEnv = "ADAPTBENCH_DATA"

// DataDir returns $ADAPTBENCH_DATA/<rel> when the variable is set, else
// shared/data/<rel> found by walking up from the working directory, else
// "" and a message saying how to get the data.
func DataDir(rel string) (string, string) {
	if d := os.Getenv(DataEnv); d != "" {
		p := filepath.Join(d, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Sprintf("%s=%s has no %s (fetch the datasets with: go run ./examples/datasets -out %s)", DataEnv, d, rel, d)
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
	return "", fmt.Sprintf("the published dataset %s is neither in $%s nor in shared/data above the working directory (fetch them with: go run ./examples/datasets -out DIR, then export %s=DIR)", rel, DataEnv, DataEnv)
}

// DataPath returns the directory or file <rel> of the datasets (see DataDir). It
// skips the test when there is none, or fails it under
// ADAPTBENCH_REQUIRE_DATA=1.
func DataPath(tb testing.TB, rel string) string {
	tb.Helper()
	p, msg := DataDir(rel)
	if p != "" {
		return p
	}
	if os.Getenv("ADAPTBENCH_REQUIRE_DATA") == "1" {
		tb.Fatalf("required by ADAPTBENCH_REQUIRE_DATA=1: %s", msg)
	}
	tb.Skip(msg)
	return ""
}
