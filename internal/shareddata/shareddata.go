// Package shareddata finds the published datasets that live beside the
// checkout (../shared/data in development and CI) for the tests that read
// them, and skips those tests with a clear message where the folder is
// absent (fails them when ADAPTBENCH_REQUIRE_DATA=1, as the test command
// sets).
package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Path returns the path of shared/data/<rel>, found by walking up from the
// working directory (a package directory under test). It skips the test
// when there is none.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err == nil {
		for {
			p := filepath.Join(dir, "shared", "data", filepath.FromSlash(rel))
			if _, err := os.Stat(p); err == nil {
				return p
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	msg := fmt.Sprintf("shared/data/%s is not above the package directory (the published datasets sit beside the checkout in CI)", rel)
	if os.Getenv("ADAPTBENCH_REQUIRE_DATA") == "1" {
		tb.Fatalf("required by ADAPTBENCH_REQUIRE_DATA=1: %s", msg)
	}
	tb.Skip(msg)
	return ""
}
