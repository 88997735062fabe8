package gomod

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/mutate"
)

func TestParseCoverProfile(t *testing.T) {
	prof := "mode: set\n" +
		"example.com/m/a.go:3.10,5.2 2 1\n" +
		"example.com/m/a.go:7.1,7.20 1 0\n" +
		"example.com/m/b.go:10.2,12.3 1 4\n"
	got, err := parseCoverProfile([]byte(prof), "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	want := mutate.Lines{"a.go": {3, 4, 5}, "b.go": {10, 11, 12}}
	assert.Equal(t, want, got, "coverage profile")
	for _, tc := range []struct{ name, line, reason string }{
		{"fields", "a.go:1.1,2.2 1", "three fields after the colon"},
		{"count", "a.go:1.1,2.2 1 x", "a numeric count"},
		{"range", "a.go:1-2 1 1", "l.c,l.c"},
	} {
		if _, err := parseCoverProfile([]byte("mode: set\n"+tc.line+"\n"), "m"); err == nil {
			t.Errorf("%s: %q parsed, want an error (%s)", tc.name, tc.line, tc.reason)
		}
	}
}
