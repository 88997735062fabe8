package mutate_test

import (
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
)

func TestMain(m *testing.M) { exectest.Main(m) }
