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
