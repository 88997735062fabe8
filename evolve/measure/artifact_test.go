package measure

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFirstExceeded(t *testing.T) {
	th := GeneBenchV1
	for _, c := range []struct {
		name   string
		set    func(*Metrics)
		want   string // artifact key, "" for none
		reason string
	}{
		{"none", func(*Metrics) {}, "", "an empty program exceeds nothing"},
		{"at-threshold", func(m *Metrics) { m.Readability[9] = 4 }, "", "R10 = RT10 is not strictly above"},
		{"order", func(m *Metrics) { m.Readability[2] = 46; m.Readability[5] = 46 }, "num_conditions",
			"R3 (num_of_variables) and R6 (num_conditions) both exceed; the artifact checks num_conditions first"},
		{"r14", func(m *Metrics) { m.MaxIfConditions = 4; m.Readability[10] = 32 }, "num_max_conditions_in_if",
			"num_max_conditions_in_if comes before max_line_tokens"},
		{"entropy-last", func(m *Metrics) { m.Readability[12] = 7.5; m.Readability[11] = 3 }, "num_of_nested_casting",
			"entropy is the artifact's last key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m Metrics
			c.set(&m)
			info, ok := th.FirstExceeded(m)
			if got := info.ArtifactKey; got != c.want || ok != (c.want != "") {
				t.Errorf("FirstExceeded = %q, %v; want %q (%s)", got, ok, c.want, c.reason)
			}
		})
	}
}

func TestArtifactBans(t *testing.T) {
	// Every readability key, in the artifact's order, has an entry.
	var keys []string
	for _, i := range artifactOrder {
		if i < 0 {
			keys = append(keys, MaxIfConditionsInfo.ArtifactKey)
		} else {
			keys = append(keys, ReadabilityInfo[i].ArtifactKey)
		}
	}
	var got []string
	for _, b := range ArtifactBans {
		got = append(got, b.Key)
	}
	assert.Equal(t, keys, got, "ArtifactBans keys (-artifact order +got)")
	if n := len(BannedBy("num_tokens")); n != 13 {
		t.Errorf("num_tokens bans %d operators, want 13", n)
	}
	if got := BannedBy("lines_of_code"); len(got) != 12 || contains(got, "add_nested_list") {
		t.Errorf("lines_of_code bans %v, want the num_tokens list without add_nested_list", got)
	}
	if got := BannedBy("max_line_tokens"); got != nil {
		t.Errorf("max_line_tokens bans %v, want nothing", got)
	}
}
