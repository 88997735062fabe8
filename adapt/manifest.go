package adapt

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	osexec "os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// manifestOf describes this machine for tasks, run by runner.
func manifestOf(ctx context.Context, runner exec.Runner, tasks []*Task) *report.Manifest {
	m := &report.Manifest{Harness: fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)}
	m.Host, _ = os.Hostname()
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if i, ok := runner.(interface{ Isolation() string }); ok {
		m.Isolation = i.Isolation()
	}
	langs := map[string]bool{}
	for _, t := range tasks {
		langs[t.Language] = true
	}
	if langs[Python] {
		m.Python = firstLine(toolOutput(ctx, exec.DefaultPython, "--version"))
		env := toolOutput(ctx, exec.DefaultPython, "-c", "import importlib.metadata as m\n"+
			"print('\\n'.join(sorted({'%s==%s' % (d.metadata['Name'], d.version) for d in m.distributions()})))")
		if !strings.HasPrefix(env, "unknown") {
			sum := sha256.Sum256([]byte(env))
			m.PythonEnv = fmt.Sprintf("%d distributions, sha256 %s", strings.Count(env, "\n")+1, hex.EncodeToString(sum[:8]))
		}
	}
	if langs[Java] {
		m.Java = firstLine(toolOutput(ctx, "java", "-version"))
	}
	if langs[Go] {
		m.Go = firstLine(toolOutput(ctx, "go", "env", "GOVERSION"))
	}
	return m
}

// machines holds the manifests of the machines records came from, and
// which one each record came from.
type machines struct {
	list []report.Manifest
	// cur is the machine of the records filed now (an index of list), -1
	// when not known (a Draw, which has no manifest).
	cur int
	// gold, comps and results map each record of records to its machine.
	gold           map[string]int
	comps, results map[sampleKey]int
}

func newMachines() machines {
	return machines{cur: -1, gold: map[string]int{}, comps: map[sampleKey]int{}, results: map[sampleKey]int{}}
}

// use makes m (nil: not known) the machine of the records filed from now.
func (ms *machines) use(m *report.Manifest) {
	if m == nil {
		ms.cur = -1
		return
	}
	ms.cur = slices.Index(ms.list, *m)
	if ms.cur < 0 {
		ms.list = append(ms.list, *m)
		ms.cur = len(ms.list) - 1
	}
}

// counts lists each machine the records of r came from, with how many,
// in the order the machines were first met.
func (ms *machines) counts(r *records) []report.Machine {
	n := make([]int, len(ms.list))
	count := func(i int, ok bool) {
		if ok && i >= 0 {
			n[i]++
		}
	}
	for id := range r.gold {
		i, ok := ms.gold[id]
		count(i, ok)
	}
	for k := range r.completions {
		i, ok := ms.comps[k]
		count(i, ok)
	}
	for k := range r.results {
		i, ok := ms.results[k]
		count(i, ok)
	}
	var out []report.Machine
	for i, m := range ms.list {
		if n[i] > 0 {
			out = append(out, report.Machine{Manifest: m, Records: n[i]})
		}
	}
	return out
}

// toolOutputs keeps what each toolchain said, for the life of the
// process: a version does not change under a running program, and asking
// again would cost every Evaluate a JVM's start.
var toolOutputs sync.Map

// toolOutput runs a toolchain of the host (not code under test) and
// returns what it printed, or "unknown" and why.
func toolOutput(ctx context.Context, name string, args ...string) string {
	key := name + "\x00" + strings.Join(args, "\x00")
	if v, ok := toolOutputs.Load(key); ok {
		return v.(string)
	}
	out := runTool(ctx, name, args...)
	toolOutputs.Store(key, out)
	return out
}

func runTool(ctx context.Context, name string, args ...string) string {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := osexec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &out // java -version writes to stderr
	if err := cmd.Run(); err != nil {
		return "unknown (" + name + ": " + err.Error() + ")"
	}
	return strings.TrimSpace(out.String())
}
