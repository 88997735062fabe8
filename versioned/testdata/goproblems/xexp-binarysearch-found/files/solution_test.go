package solution

import "testing"

func TestVisibleLookup(t *testing.T) {
	names := []string{"ada", "bo", "cleo"}
	if i, ok := Lookup(names, "bo"); i != 1 || !ok {
		t.Fatalf("Lookup(%v, bo) = %d, %v, want 1, true", names, i, ok)
	}
}

func TestLookupMissing(t *testing.T) {
	names := []string{"ada", "bo", "cleo"}
	for _, c := range []struct {
		name string
		i    int
	}{{"aaron", 0}, {"bob", 2}, {"zoe", 3}} {
		if i, ok := Lookup(names, c.name); i != c.i || ok {
			t.Errorf("Lookup(%v, %s) = %d, %v, want %d, false", names, c.name, i, ok, c.i)
		}
	}
	if i, ok := Lookup(nil, "x"); i != 0 || ok {
		t.Errorf("Lookup(nil, x) = %d, %v, want 0, false", i, ok)
	}
}
