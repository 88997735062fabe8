package measure

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
)

var update = flag.Bool("update", false, "rewrite testdata/metrics.golden.json")

// TestGoldenFixtures pins every metric of the testdata fixtures, so that
// a change shows as a diff even where Debian's Python (which
// TestCrossCheck needs to validate them) is absent. Refresh with
// go test -run TestGoldenFixtures -update, after TestCrossCheck passes.
func TestGoldenFixtures(t *testing.T) {
	got := map[string]Metrics{}
	for _, p := range fixtures(t) {
		m, err := Measure(p.Src)
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		got[p.ID] = m
	}
	const path = "testdata/metrics.golden.json"
	if *update {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]Metrics
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	assert.Equal(t, want, got, "metrics of the fixtures differ from %s", path)
}
