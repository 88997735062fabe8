package exec_test

import (
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestMain closes the runners the tests share and fails the run when a
// job left anything on the host.
func TestMain(m *testing.M) { exectest.Main(m) }
