package evolve_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/evolve"
	"github.com/adaptbench/adaptbench/evolve/transform"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/syntax"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

func TestMain(m *testing.M) {
	exectest.Main(m, func() {
		if preloaded != nil {
			preloaded.Close()
		}
	})
}

var (
	preloadOnce sync.Once
	preloaded   *sandbox.ForkServer
)

// forkServer returns a fork server over the shared sandbox that preloads
// evolve.PreloadList() (numpy, scipy, ...), shared by the tests and
// closed by TestMain.
func forkServer(t testing.TB) *sandbox.ForkServer {
	t.Helper()
	sb := exectest.Sandbox(t)
	preloadOnce.Do(func() {
		var err error
		if preloaded, err = sandbox.NewForkServer(sb, &sandbox.ForkServerConfig{Preload: evolve.PreloadList()}); err != nil {
			t.Fatal(err)
		}
	})
	return preloaded
}

// tester returns a fresh Tester (empty cache) over the shared fork server.
func tester(t testing.TB) *evolve.Tester {
	t.Helper()
	return evolve.NewTester(forkServer(t), nil)
}

// sumSquares is a HumanEval-shaped problem written for these tests.
var sumSquares = humaneval.Problem{
	TaskID: "Demo/0",
	Prompt: `def sum_squares(xs):
    """Return the sum of the squares of xs."""
`,
	EntryPoint: "sum_squares",
	CanonicalSolution: `    total = 0
    for x in xs:
        if x != 0:
            total = total + x * x
    return total
`,
	Test: `def check(candidate):
    assert candidate([1, 2, 3]) == 14
    assert candidate([]) == 0
    assert abs(candidate([0.5]) - 0.25) < 1e-9
    assert candidate([-2]) == 4
`,
}

// broken's canonical solution fails its own test.
var broken = humaneval.Problem{
	TaskID:            "Demo/1",
	Prompt:            "def twice(x):\n    \"\"\"Return 2 * x.\"\"\"\n",
	EntryPoint:        "twice",
	CanonicalSolution: "    return x + 1\n",
	Test:              "def check(candidate):\n    assert candidate(3) == 6\n",
}

// subjectOf makes a subject of an inline problem.
func subjectOf(t testing.TB, p humaneval.Problem) *evolve.Subject {
	t.Helper()
	tasks, err := humaneval.Tasks([]humaneval.Problem{p}, "inline")
	if err != nil {
		t.Fatal(err)
	}
	s, err := evolve.FromTask(&tasks[0])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// humanEval loads the shared HumanEval tasks, skipping when absent.
func humanEval(t testing.TB) []adapt.Task {
	t.Helper()
	tasks, err := humaneval.LoadFile(testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// suite returns transform.All, skipping the test while the transform
// package has none.
func suite(t testing.TB) []*transform.Transform {
	t.Helper()
	if len(transform.All) == 0 {
		t.Skip("transform.All is empty")
	}
	return transform.All
}

// The operators below are written for these tests, so that the search's
// mechanics are tested independently of the operator package: two
// semantics-preserving rewrites, one that breaks programs and a bug
// mutator.

// statements returns the nodes of the given type that start their line.
func statements(src []byte, typ string) []*syntax.Node {
	root, err := syntax.ParseNodes(syntax.Python, src)
	if err != nil {
		return nil
	}
	var out []*syntax.Node
	root.Walk(func(n *syntax.Node) bool {
		if n.Type == typ && bytes.TrimSpace(src[lineStart(src, n.Start):n.Start]) == nil {
			out = append(out, n)
		}
		return true
	})
	return out
}

func lineStart(src []byte, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

func sitesOf(typ string) func(p *transform.Program) []transform.Site {
	return func(p *transform.Program) []transform.Site {
		var out []transform.Site
		for _, n := range statements(p.Main, typ) {
			out = append(out, transform.Site{Start: n.Start, End: n.End, Kind: n.Type, Key: fmt.Sprintf("%s@%d", typ, n.Start)})
		}
		return out
	}
}

// edit returns p with src[start:end] replaced.
func edit(p *transform.Program, start, end int, text string) *transform.Program {
	q := p.Clone()
	q.Main = append(append(append([]byte(nil), p.Main[:start]...), text...), p.Main[end:]...)
	return q
}

// guardReturn wraps a return statement in "if a > 0:" (a in 1..1000),
// which adds a condition and a nesting level.
var guardReturn = &transform.Transform{
	ID: "S91", Name: "GuardReturn", Family: transform.Structural,
	Doc:   "wraps a return statement in an always-true if",
	Sites: sitesOf("return_statement"),
	Apply: func(p *transform.Program, s transform.Site, rng *rand.Rand) (*transform.Program, error) {
		ls := lineStart(p.Main, s.Start)
		ind := string(p.Main[ls:s.Start])
		body := bytes.ReplaceAll(p.Main[s.Start:s.End], []byte("\n"), []byte("\n    "))
		return edit(p, ls, s.End, fmt.Sprintf("%sif %d > 0:\n%s    %s", ind, 1+rng.IntN(1000), ind, body)), nil
	},
}

// deadAssign puts "unused_k = n" before a return statement.
var deadAssign = &transform.Transform{
	ID: "S92", Name: "DeadAssign", Family: transform.Structural,
	Doc:   "assigns an unused variable before a return statement",
	Sites: sitesOf("return_statement"),
	Apply: func(p *transform.Program, s transform.Site, rng *rand.Rand) (*transform.Program, error) {
		ls := lineStart(p.Main, s.Start)
		ind := string(p.Main[ls:s.Start])
		return edit(p, ls, ls, fmt.Sprintf("%sunused_%d = %d\n", ind, rng.IntN(100), rng.IntN(100))), nil
	},
}

// returnNone breaks the program: "return x" becomes "return None".
var returnNone = &transform.Transform{
	ID: "S93", Name: "ReturnNone", Family: transform.Structural,
	Doc:   "replaces a return statement by return None (breaks programs)",
	Sites: sitesOf("return_statement"),
	Apply: func(p *transform.Program, s transform.Site, rng *rand.Rand) (*transform.Program, error) {
		return edit(p, s.Start, s.End, "return None"), nil
	},
}

// flipPlus is a bug mutator: the first "+" of an assignment's right side
// becomes "-".
var flipPlus = &transform.Transform{
	ID: "M91", Name: "FlipPlus", Family: transform.Bug,
	Doc: "turns a + into a -",
	Sites: func(p *transform.Program) []transform.Site {
		root, err := syntax.ParseNodes(syntax.Python, p.Main)
		if err != nil {
			return nil
		}
		var out []transform.Site
		root.Walk(func(n *syntax.Node) bool {
			if n.Type == "+" && !n.Named {
				out = append(out, transform.Site{Start: n.Start, End: n.End, Kind: "+", Key: fmt.Sprintf("+@%d", n.Start)})
			}
			return true
		})
		return out
	},
	Apply: func(p *transform.Program, s transform.Site, rng *rand.Rand) (*transform.Program, error) {
		return edit(p, s.Start, s.End, "-"), nil
	},
}
