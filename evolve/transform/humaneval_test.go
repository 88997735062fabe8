package transform

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	osexec "os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/internal/testenv"
)

// heProblem is one HumanEval record.
type heProblem struct {
	TaskID     string `json:"task_id"`
	Prompt     string `json:"prompt"`
	Solution   string `json:"canonical_solution"`
	Test       string `json:"test"`
	EntryPoint string `json:"entry_point"`
}

// program returns the problem's canonical program, protecting the entry
// point and every top-level function the test mentions.
func (h heProblem) program() *Program {
	src := h.Prompt + h.Solution
	prot := []string{h.EntryPoint}
	for _, m := range regexp.MustCompile(`(?m)^def (\w+)`).FindAllStringSubmatch(src, -1) {
		if m[1] != h.EntryPoint && regexp.MustCompile(`\b`+m[1]+`\b`).MatchString(h.Test) {
			prot = append(prot, m[1])
		}
	}
	return &Program{Main: []byte(src), Protected: prot}
}

func loadHumanEval(t *testing.T) []heProblem {
	t.Helper()
	path := testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz")
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []heProblem
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var h heProblem
		if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, h)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(out) != 164 {
		t.Fatalf("%s: %d problems, want 164", path, len(out))
	}
	return out
}

// variant is one transformed HumanEval program.
type variant struct {
	op, task string
	prog     *Program
}

// prerequisite is the operator whose output an operator needs in
// HumanEval: no canonical solution assigns the result of one of its own
// functions (S4) or has an S6 function to move (S7).
var prerequisite = map[string]*Transform{"S4": createFunction, "S7": createFunction}

// sitesPerProgram is how many seeded sites per program and operator the
// property test transforms.
const sitesPerProgram = 3

// heVariants applies every operator of ts at up to sitesPerProgram seeded
// sites of every problem and returns the results that parse, with the
// counts of attempts and parsing results per operator.
func heVariants(t *testing.T, hs []heProblem, ts []*Transform) (vs []variant, tried, parsed map[string]int, programs map[string]int) {
	tried, parsed, programs = map[string]int{}, map[string]int{}, map[string]int{}
	for oi, tr := range ts {
		for pi, h := range hs {
			p := h.program()
			if pre := prerequisite[tr.ID]; pre != nil {
				// S4 and S7 apply to what S6 makes: give them every S6 site.
				for _, s := range pre.Sites(p) {
					if q, err := pre.Apply(p, s, rand.New(rand.NewPCG(1, 1))); err == nil && len(tr.Sites(q)) > 0 {
						p = q
						break
					}
				}
			}
			sites := tr.Sites(p)
			if len(sites) > 0 {
				programs[tr.ID]++
			}
			rng := rand.New(rand.NewPCG(uint64(pi), uint64(oi)))
			idx := rng.Perm(len(sites))
			for _, i := range idx[:min(len(idx), sitesPerProgram)] {
				tried[tr.ID]++
				seed := rng.Uint64()
				q, err := tr.Apply(p, sites[i], rand.New(rand.NewPCG(seed, 7)))
				if err != nil {
					t.Errorf("%s %s at %s: %v", tr.ID, h.TaskID, sites[i].Key, err)
					continue
				}
				again, err := tr.Apply(p, sites[i], rand.New(rand.NewPCG(seed, 7)))
				if err != nil || again.Hash() != q.Hash() {
					t.Errorf("%s %s at %s: not deterministic", tr.ID, h.TaskID, sites[i].Key)
				}
				if err := Check(q); err != nil {
					t.Errorf("%s %s at %s: %v\n%s", tr.ID, h.TaskID, sites[i].Key, err, q.Main)
					continue
				}
				parsed[tr.ID]++
				vs = append(vs, variant{op: tr.ID, task: h.TaskID, prog: q})
			}
		}
	}
	return vs, tried, parsed, programs
}

// compileAll compiles every variant (Main and modules) with Debian's
// python, which catches what tree-sitter accepts but CPython rejects
// (a nonlocal without a binding, a misplaced break), and returns the
// indices of the variants that do not compile. compile() runs no code.
func compileAll(t *testing.T, vs []variant) map[int]string {
	t.Helper()
	var in strings.Builder
	enc := json.NewEncoder(&in)
	for _, v := range vs {
		files := []string{string(v.prog.Main)}
		for _, name := range sortedKeys(v.prog.Modules) {
			files = append(files, string(v.prog.Modules[name]))
		}
		if err := enc.Encode(files); err != nil {
			t.Fatal(err)
		}
	}
	const script = `
import json, sys
for i, line in enumerate(sys.stdin):
    for src in json.loads(line):
        try:
            compile(src, "prog.py", "exec")
        except SyntaxError as e:
            print(i, json.dumps(str(e)))
            break
`
	cmd := osexec.Command(python, "-c", script)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python compile: %v", err)
	}
	bad := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		var i int
		var msg string
		if _, err := fmt.Sscanf(line, "%d", &i); err != nil {
			t.Fatalf("python compile: bad line %q", line)
		}
		_, msg, _ = strings.Cut(line, " ")
		bad[i] = msg
	}
	return bad
}

// TestHumanEvalParses is the property test: over HumanEval's 164
// canonical solutions, every operator at up to three seeded sites per
// program gives a program that parses with tree-sitter and compiles with
// CPython, and the same seed gives the same bytes.
func TestHumanEvalParses(t *testing.T) {
	hs := loadHumanEval(t)
	ts := append(All[:len(All):len(All)], Bugs...)
	vs, tried, parsed, programs := heVariants(t, hs, ts)
	bad := map[int]string{}
	if _, err := os.Stat(python); err == nil {
		bad = compileAll(t, vs)
	}
	compiled := map[string]int{}
	for i, v := range vs {
		if msg, ok := bad[i]; ok {
			t.Errorf("%s %s: does not compile: %s\n%s", v.op, v.task, msg, v.prog.Main)
			continue
		}
		compiled[v.op]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %-26s %9s %6s %7s %9s\n", "ID", "name", "programs", "sites", "parse", "compile")
	for _, tr := range ts {
		fmt.Fprintf(&b, "%-4s %-26s %9d %6d %7s %9s\n", tr.ID, tr.Name, programs[tr.ID], tried[tr.ID],
			share(parsed[tr.ID], tried[tr.ID]), share(compiled[tr.ID], tried[tr.ID]))
	}
	t.Logf("HumanEval (164 programs, up to %d seeded sites each):\n%s", sitesPerProgram, b.String())
	for _, tr := range ts {
		if programs[tr.ID] == 0 {
			t.Errorf("%s has no site in any HumanEval program", tr.ID)
		}
	}
}

func share(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}
