package measure

import (
	"sync"
	"testing"
)

// TestMeasureConcurrent measures the HumanEval programs from several
// goroutines at once (the search measures offspring in parallel) and
// checks every result against the sequential one.
func TestMeasureConcurrent(t *testing.T) {
	progs := humanEval(t)
	want := make([]Metrics, len(progs))
	for i, p := range progs {
		m, err := Measure(p.Src)
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		want[i] = m
	}
	const workers = 4
	got := make([][]Metrics, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([]Metrics, len(progs))
		wg.Go(func() {
			for k := range progs {
				i := (k + w*41) % len(progs) // each worker in a different order
				m, err := Measure(progs[i].Src)
				if err != nil {
					t.Errorf("%s: %v", progs[i].ID, err)
					return
				}
				got[w][i] = m
			}
		})
	}
	wg.Wait()
	for w := range workers {
		for i := range progs {
			if got[w][i] != want[i] {
				t.Errorf("worker %d, %s: %v, sequentially %v", w, progs[i].ID, got[w][i], want[i])
			}
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{ComplexityName(0), "cyclomatic complexity"},
		{ComplexityName(6), "intra-class dependencies"},
		{ComplexityName(7), ""},
		{ComplexityName(-1), ""},
		{ReadabilityName(0), "tokens"},
		{ReadabilityName(12), "entropy"},
		{ReadabilityName(13), ""},
	} {
		if c.got != c.want {
			t.Errorf("name %q, want %q", c.got, c.want)
		}
	}
	for i, info := range ComplexityInfo {
		if want := "C" + string(rune('1'+i)); info.ID != want || info.Name == "" || info.ArtifactKey == "" {
			t.Errorf("ComplexityInfo[%d] = %+v, want ID %s and a name and key", i, info, want)
		}
	}
	seen := map[string]bool{}
	for i, info := range ReadabilityInfo {
		if info.Name == "" || info.ArtifactKey == "" || seen[info.ArtifactKey] {
			t.Errorf("ReadabilityInfo[%d] = %+v: empty or repeated", i, info)
		}
		seen[info.ArtifactKey] = true
	}
}
