package versioned_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/versioned"
)

func TestCategories(t *testing.T) {
	ps, err := versioned.ReadFile(filepath.Join(dataDir(t), "dataset.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ours, fig4 := map[string]int{}, map[string]int{}
	for _, p := range ps {
		ours[versioned.Categorize(p.ChangeType).String()]++
		fig4[versioned.CategorizeFig4(p.ChangeType).String()]++
	}
	want := map[string]int{"argument": 107, "new-feature": 99, "function-name": 58, "semantics": 56, "other": 8}
	assert.Equal(t, want, ours, "Categorize")
	want = map[string]int{"argument": 108, "function-name": 106, "new-feature": 53, "semantics": 34, "other": 27}
	assert.Equal(t, want, fig4, "CategorizeFig4, against the digest's recount of Fig. 4(b)")
}

func TestCategoryText(t *testing.T) {
	for c := versioned.CategoryArgument; c <= versioned.CategoryOther; c++ {
		b, err := c.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back versioned.ChangeCategory
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Errorf("%v: round trip gave %v, %v", c, back, err)
		}
	}
	if _, err := versioned.CategoryInvalid.MarshalText(); err == nil {
		t.Error("the invalid category marshalled")
	}
	var c versioned.ChangeCategory
	if err := c.UnmarshalText([]byte("")); err == nil {
		t.Error(`"" unmarshalled`)
	}
}
