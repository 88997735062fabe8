package adapt_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt"
)

// TestPreload checks which modules the default runner imports once: the
// top-level absolute imports of Python tasks on the machine's interpreter,
// most imported first, without a module a task's workspace defines itself
// (the job must import its own), relative, __future__ or nested imports,
// and without the imports of tasks that run elsewhere (Env) or in another
// language.
func TestPreload(t *testing.T) {
	py := func(id, target string, files ...adapt.File) adapt.Task {
		return adapt.Task{ID: id, Language: adapt.Python, Target: adapt.Target{Path: "sol.py", Content: target}, Files: files}
	}
	tasks := []adapt.Task{
		py("a", "from __future__ import annotations\nimport numpy as np\nimport scipy.stats\nfrom . import sibling\n",
			adapt.File{Path: "test_sol.py", Content: "import unittest\nfrom sol import f\n"}),
		py("b", "import numpy\nfrom dateutil import parser\nimport helpers\ndef f():\n    import torch\n",
			adapt.File{Path: "helpers/__init__.py"}),
		py("c", "try:\n    import numpy\nexcept ImportError:\n    pass\nimport unittest\n"),
		{ID: "env", Language: adapt.Python, Env: &adapt.Environment{Runtime: "3.9"}, Target: adapt.Target{Path: "x.py", Content: "import pandas\n"}},
		{ID: "go", Language: adapt.Go, Target: adapt.Target{Path: "x.go", Content: "package x\n"}},
	}
	got := adapt.Preload(tasks)
	want := []string{"numpy", "unittest", "dateutil", "scipy.stats"}
	assert.Equal(t, want, got, "Preload")
	// The same tasks in another order give the same list.
	rev := []adapt.Task{tasks[4], tasks[3], tasks[2], tasks[1], tasks[0]}
	assert.Equal(t, got, adapt.Preload(rev), "Preload depends on task order")
}
