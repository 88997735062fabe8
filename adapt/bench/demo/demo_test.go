package demo_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
)

// TestEmbeddedUpToDate checks that demo.jsonl was regenerated after the
// task directories last changed.
func TestEmbeddedUpToDate(t *testing.T) {
	got, err := demo.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	want, err := adapt.LoadDir(os.DirFS("testdata"), "tasks")
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		want[i].Provenance = &adapt.Provenance{Generator: "hand-written", Source: "adaptbench demo"}
	}
	require.Equal(t, want, got, "demo.jsonl is stale; run `go generate ./adapt/bench/demo`")
	langs := map[string]int{}
	for _, task := range got {
		langs[task.Language]++
	}
	if len(got) < 12 || langs[adapt.Python] == 0 || langs[adapt.Go] == 0 {
		t.Errorf("the demo needs a dozen or more tasks in Python and Go; have %v", langs)
	}
}
