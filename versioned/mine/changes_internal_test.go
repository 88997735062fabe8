package mine

import "testing"

// TestReplacement reads the replacement a deprecation note names.
func TestReplacement(t *testing.T) {
	for _, c := range []struct{ note, want, reason string }{
		{"Deprecated: Use Modern instead.", "Modern", "the usual form"},
		{"Deprecated: use [NewReader] instead.", "NewReader", "a doc link"},
		{"Deprecated: Use Client.Do.", "Client.Do", "a method, the sentence's period dropped"},
		{"Deprecated: Call *T.Close.", "T.Close", "a pointer receiver"},
		{"Deprecated: this never worked.", "", "no replacement named"},
	} {
		if got := replacement(c.note); got != c.want {
			t.Errorf("%s: replacement(%q) = %q, want %q", c.reason, c.note, got, c.want)
		}
	}
}

// TestRecvName normalises apidiff's names of methods.
func TestRecvName(t *testing.T) {
	for in, want := range map[string]string{
		"(*T).M":    "T.M",
		"T.M":       "T.M",
		"T[K].M":    "T.M",
		"(*T[K]).M": "T.M",
		"F":         "F",
		"T.Field":   "T.Field",
	} {
		if got := recvName.ReplaceAllString(in, "$1$2."); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}

// TestUniqueIDs: a function that calls one API with two signatures gives
// two candidates, whose IDs differ.
func TestUniqueIDs(t *testing.T) {
	cands := []*candidate{{id: "m@v1/p.ExampleTrim.Trim/new-api"}, {id: "m@v1/p.ExampleTrim.Trim/new-api"}, {id: "m@v1/p.ExampleTrim.Trim/adapt"}}
	uniqueIDs(cands)
	for i, want := range []string{"m@v1/p.ExampleTrim.Trim/new-api", "m@v1/p.ExampleTrim.Trim~2/new-api", "m@v1/p.ExampleTrim.Trim/adapt"} {
		if cands[i].id != want {
			t.Errorf("candidate %d: %q, want %q", i, cands[i].id, want)
		}
	}
}
