package classeval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/internal/testenv"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

func TestMain(m *testing.M) { exectest.Main(m) }

func forkServer(t testing.TB) *sandbox.ForkServer { return exectest.ForkServer(t) }

func dataFile(t testing.TB) string { return testenv.DataPath(t, "classeval/ClassEval_data.json") }

func TestLoadAll(t *testing.T) {
	path := dataFile(t)
	classes, err := classeval.ReadFile(path)
	require.NoError(t, err)
	require.Len(t, classes, 100)
	methods := 0
	for _, c := range classes {
		methods += len(c.Methods)
	}
	assert.Equal(t, 410, methods)

	c := classes[11]
	assert.Equal(t, "BitStatusUtil", c.Name)
	m := c.Method("add")
	require.NotNil(t, m)
	assert.Equal(t, []string{"check"}, m.Dependencies.Methods)

	tasks, err := classeval.Tasks(classes, path)
	require.NoError(t, err)
	require.Len(t, tasks, 410)
	assert.Equal(t, "ClassEval_0.filter", tasks[0].ID)
	assert.Equal(t, "AccessGatewayFilter.filter", tasks[0].Target.Function)
	assert.Equal(t, "test_solution.AccessGatewayFilterTestFilter.test_filter_1", tasks[0].Tests[0].Name)
	assert.True(t, strings.HasPrefix(tasks[0].Reference, "def filter(self, request):"), tasks[0].Reference)
	for _, tk := range tasks {
		assert.NotEmpty(t, tk.Tests, tk.ID)
		assert.NotEmpty(t, tk.Requirement.Task, tk.ID)
	}
}

func TestThirdParty(t *testing.T) {
	d := classeval.Dependencies{Libs: []string{"json", "openpyxl", "re", "PyPDF2"}}
	assert.Equal(t, []string{"openpyxl", "PyPDF2"}, d.ThirdParty())
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, in, want, reason string
	}{
		{"syntax", `[{`, "c.json", "malformed JSON names the file"},
		{"no_id", `[{"class_name": "A"}]`, "record 0 (): no task_id", "a record without id is named by index"},
		{"no_methods", `[{"task_id": "ClassEval_1", "class_name": "A", "solution_code": "x", "test": "y"}]`,
			"record 0 (ClassEval_1): no methods_info", "the record is named by id"},
		{"bad_method", `[{"task_id": "ClassEval_1", "class_name": "A", "solution_code": "x", "test": "y", "methods_info": [{"method_name": "f"}]}]`,
			`method 0 ("f")`, "the method is named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := classeval.Read(strings.NewReader(tt.in), "c.json")
			assert.ErrorContains(t, err, tt.want, tt.reason)
		})
	}
}

// TestReferencePasses runs the reference of every method of five classes
// that use only the standard library through Evaluate in the sandbox.
func TestReferencePasses(t *testing.T) {
	path := dataFile(t)
	classes, err := classeval.ReadFile(path)
	require.NoError(t, err)
	var picked []classeval.Class
	for _, i := range []int{2, 7, 8, 9, 11} {
		require.Empty(t, classes[i].ThirdParty())
		picked = append(picked, classes[i])
	}
	tasks, err := classeval.Tasks(picked, path)
	require.NoError(t, err)
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: forkServer(t), NoGold: true})
	require.NoError(t, err)
	p1, _ := rep.Score(1)
	assert.Equal(t, 1.0, p1, "outcomes %v, invalid %v", rep.Outcomes, rep.Invalid)

	// The tests decide: the method's bare signature and docstring fail.
	rep, err = adapt.Evaluate(context.Background(), tasks, adapt.Identity, &adapt.Options{Runner: forkServer(t), NoGold: true})
	require.NoError(t, err)
	p1, _ = rep.Score(1)
	assert.Less(t, p1, 0.2, "outcomes %v", rep.Outcomes)
	t.Logf("%d methods of 5 classes; identity pass@1 %.2f", len(tasks), p1)
}

func TestContextHelpers(t *testing.T) {
	classes, err := classeval.ReadFile(dataFile(t))
	require.NoError(t, err)
	names := map[string][]string{}
	for _, c := range classes {
		names[c.TaskID] = c.ImportedNames()
	}
	assert.Equal(t, []string{"Document", "Pt", "WD_PARAGRAPH_ALIGNMENT"}, names["ClassEval_34"])
	c := &classes[11]
	assert.Equal(t, []string{"add", "has", "remove", "check"}, c.MethodNames())
	assert.Equal(t, []string{"add", "has", "remove"}, c.Siblings("check"))
	assert.Equal(t, []string{"add", "has", "remove"}, c.Callers("check"))
	assert.Equal(t, []string{"remove"}, c.Callers("has"))
	ctx, err := c.SolutionWithout("has", "remove")
	require.NoError(t, err)
	assert.Equal(t, "class BitStatusUtil:\n    @staticmethod\n    def add(states, stat):\n        BitStatusUtil.check([states, stat])\n        return states | stat\n\n    @staticmethod\n    def check(args):\n        for arg in args:\n            if arg < 0:\n                raise ValueError(f\"{arg} must be greater than or equal to 0\")\n            if arg % 2 != 0:\n                raise ValueError(f\"{arg} not even\")", ctx)
	ref, err := c.MethodSolution("add")
	require.NoError(t, err)
	assert.Equal(t, "@staticmethod\ndef add(states, stat):\n    BitStatusUtil.check([states, stat])\n    return states | stat\n", string(ref))
}

func TestImportedNames(t *testing.T) {
	c := classeval.Class{Imports: []string{"import numpy as np", "from docx.shared import Pt", "import urllib.parse", "import os, re", "from math import pi, fabs", "import xml.etree.ElementTree as ET"}}
	assert.Equal(t, []string{"np", "Pt", "urllib", "os", "re", "pi", "fabs", "ET"}, c.ImportedNames())
}
