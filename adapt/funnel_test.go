package adapt_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/report"
)

func TestFunnel(t *testing.T) {
	var f report.Funnel
	f.Declare("site", "applied", "kept")
	f.Add("rename", "site", 3)
	f.Add("rename", "applied", 2)
	f.Add("guard", "site", 1)
	f.Add("rename", "kept", 1)
	f.Add("guard", "tested", 1) // a stage not declared goes last
	assert.Equal(t, []string{"site", "applied", "kept", "tested"}, f.Stages())
	assert.Equal(t, []string{"rename", "guard"}, f.Groups())
	assert.Equal(t, 4, f.Total("site"))
	assert.Equal(t, 0, f.Count("guard", "applied"))

	var b strings.Builder
	require.NoError(t, f.WriteTable(&b))
	assert.Equal(t, `| group | site | applied | kept | tested |
|---|---:|---:|---:|---:|
| rename | 3 | 2 | 1 | 0 |
| guard | 1 | 0 | 0 | 1 |
| total | 4 | 2 | 1 | 1 |
`, b.String())

	// A value marshals as a pointer does, and reads back the same.
	type holder struct{ Funnel report.Funnel }
	js, err := json.Marshal(holder{f})
	require.NoError(t, err)
	assert.JSONEq(t, `{"Funnel":{"stages":["site","applied","kept","tested"],"groups":[{"name":"rename","counts":[3,2,1,0]},{"name":"guard","counts":[1,0,0,1]}]}}`, string(js))
	var back holder
	require.NoError(t, json.Unmarshal(js, &back))
	again, _ := json.Marshal(back)
	assert.Equal(t, string(js), string(again))

	err = json.Unmarshal([]byte(`{"stages":["a"],"groups":[{"name":"g","counts":[1,2]}]}`), &back.Funnel)
	assert.ErrorContains(t, err, `funnel group "g" has 2 counts for 1 stages`)
}

func TestFunnelRegroupAndCSV(t *testing.T) {
	var f report.Funnel
	f.Declare("site", "kept")
	for _, g := range []struct {
		name       string
		site, kept int
	}{{"b+c", 2, 1}, {"a", 3, 1}, {"a+b+c", 1, 0}, {"c", 1, 1}, {"a+c", 4, 2}} {
		f.Add(g.name, "site", g.site)
		f.Add(g.name, "kept", g.kept)
	}
	level := func(g string) string {
		if n := strings.Count(g, "+") + 1; n > 1 {
			return fmt.Sprintf("L%d", n)
		}
		return "L1 " + g
	}
	sum := f.Regroup(level, strings.Compare)
	assert.Equal(t, []string{"L1 a", "L1 c", "L2", "L3"}, sum.Groups())
	assert.Equal(t, 6, sum.Count("L2", "site"))
	assert.Equal(t, 3, sum.Count("L2", "kept"))
	assert.Equal(t, f.Total("site"), sum.Total("site"), "regrouping keeps every count")
	assert.Equal(t, []string{"b+c", "a", "a+b+c", "c", "a+c"}, f.Groups(), "the funnel is unchanged")
	assert.Equal(t, []string{"L2", "L1 a", "L3", "L1 c"}, f.Regroup(level, nil).Groups(), "nil: first seen")

	var b strings.Builder
	require.NoError(t, f.WriteCSV(&b))
	assert.Equal(t, "group,site,kept\nb+c,2,1\na,3,1\na+b+c,1,0\nc,1,1\na+c,4,2\n", b.String())
}
