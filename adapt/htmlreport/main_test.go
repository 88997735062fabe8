package htmlreport_test

import (
	"testing"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

func runner(t testing.TB) exec.Runner { return exectest.ForkServer(t) }

func TestMain(m *testing.M) { exectest.Main(m) }
