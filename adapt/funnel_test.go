package adapt_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
)

func TestFunnel(t *testing.T) {
	var f adapt.Funnel
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
	type holder struct{ Funnel adapt.Funnel }
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
