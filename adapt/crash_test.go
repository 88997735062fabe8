package adapt_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	aexec "github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// The crash test's evaluation: 30 tasks × 3 samples, a model that fails
// some requests (for ever, or only the first time a process asks) and some
// samples, and a runner that fails some checks (for ever, or only the first
// time a process runs them). Every rule is a seeded hash of what the
// request or check is about, so that the final report does not depend on
// where a run was killed.
const (
	crashTasks   = 30
	crashSamples = 3
	crashSeed    = "seed-7"
)

func crashHash(parts ...any) uint32 {
	h := fnv.New32a()
	fmt.Fprint(h, crashSeed)
	for _, p := range parts {
		fmt.Fprint(h, "\x00", p)
	}
	return h.Sum32()
}

// crashHelper runs the crash test's evaluation in its own process. With
// ADAPT_CRASH_KILL_WRITE=k it kills itself with SIGKILL in the middle of its
// k-th journal write. It logs every model request and every check it starts.
func crashHelper() {
	dir := os.Getenv("ADAPT_CRASH_DIR")
	run := os.Getenv("ADAPT_CRASH_RUN")
	logf := func(name string) func(format string, args ...any) {
		f, err := os.OpenFile(filepath.Join(dir, name+"-"+run+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			panic(err)
		}
		var mu sync.Mutex
		return func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(f, format+"\n", args...)
		}
	}
	modelLog, checkLog := logf("model"), logf("check")
	if k, err := strconv.Atoi(os.Getenv("ADAPT_CRASH_KILL_WRITE")); err == nil {
		n := 0
		adapt.SetWriteHook(func(f *os.File, line []byte) (int, error) {
			if n++; n == k {
				f.Write(line[:len(line)/2])
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
			return f.Write(line)
		})
	}
	var mu sync.Mutex
	asked := map[string]int{}
	model := adapt.ModelFunc("crashy", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		id := req.Task.ID
		mu.Lock()
		asked[id]++
		attempt := asked[id]
		mu.Unlock()
		modelLog("%s %v", id, req.Samples)
		if crashHash("perm", id)%15 == 0 {
			return nil, fmt.Errorf("503 for %s", id)
		}
		if crashHash("trans", id)%6 == 0 && attempt == 1 {
			return nil, fmt.Errorf("429 for %s", id)
		}
		out := make([]report.Completion, len(req.Samples))
		for i, s := range req.Samples {
			if crashHash("sample", id, s)%12 == 0 {
				out[i].Err = fmt.Sprintf("refused %s sample %d", id, s)
				continue
			}
			code := strings.Replace(req.Task.Reference, "    return", fmt.Sprintf("    # sample %d\n    return", s), 1)
			out[i] = report.Completion{Text: "```python\n" + code + "```\n", Usage: report.Usage{PromptTokens: 10, CompletionTokens: 5 + s}}
		}
		return out, nil
	})
	sb, err := sandbox.New(nil)
	if err != nil {
		panic(err)
	}
	defer sb.Close()
	ran := map[string]int{}
	runner := aexec.RunnerFunc(func(ctx context.Context, j aexec.Job) (aexec.Result, error) {
		b, err := os.ReadFile(filepath.Join(j.Dir, "m.py"))
		if err != nil {
			return aexec.Result{Status: aexec.StatusInternal}, err
		}
		key := checkKey(string(b))
		mu.Lock()
		ran[key]++
		attempt := ran[key]
		mu.Unlock()
		checkLog("%s", key)
		if crashHash("infra-perm", key)%25 == 0 || (crashHash("infra", key)%8 == 0 && attempt == 1) {
			return aexec.Result{Status: aexec.StatusInternal}, fmt.Errorf("injected infrastructure failure")
		}
		return sb.Run(ctx, j)
	})
	rep, err := adapt.Evaluate(context.Background(), pyTasks(crashTasks), model, &adapt.Options{
		Runner: runner, Samples: crashSamples, Journal: filepath.Join(dir, "run.jsonl"),
		Backoff: time.Millisecond, KeepErrors: true,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	var b bytes.Buffer
	rep.WriteJSON(&b)
	if err := os.WriteFile(filepath.Join(dir, "report.json"), b.Bytes(), 0o644); err != nil {
		panic(err)
	}
}

// checkKey names the check of a target file: "t07 gold" or "t07 2".
func checkKey(src string) string {
	var task, sample string
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if n, ok := strings.CutPrefix(line, "# task "); ok {
			task = fmt.Sprintf("t%02s", n)
		}
		if n, ok := strings.CutPrefix(line, "# sample "); ok {
			sample = n
		}
	}
	if sample == "" {
		sample = "gold"
	}
	return task + " " + sample
}

// finishedKeys reads the whole lines of a journal: the references checked
// ("t07 gold"), the samples answered ("t07 2" in answered) and the samples
// checked ("t07 2" in checked).
func finishedKeys(t *testing.T, path string) (answered, checked map[string]bool) {
	answered, checked = map[string]bool{}, map[string]bool{}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return
	}
	require.NoError(t, err)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	} else {
		b = nil
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Kind   string `json:"kind"`
			Task   string `json:"task"`
			Sample int    `json:"sample"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), "every whole line of the journal parses")
		switch rec.Kind {
		case "gold":
			checked[rec.Task+" gold"] = true
		case "completion":
			answered[fmt.Sprintf("%s %d", rec.Task, rec.Sample)] = true
		case "result":
			checked[fmt.Sprintf("%s %d", rec.Task, rec.Sample)] = true
		}
	}
	return
}

func readLog(t *testing.T, path string) []string {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func runCrashHelper(t *testing.T, dir string, run int, killWrite int, killAfter time.Duration) (killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ADAPT_TEST_HELPER=crash", "ADAPT_CRASH_DIR="+dir, "ADAPT_CRASH_RUN="+strconv.Itoa(run))
	if killWrite > 0 {
		cmd.Env = append(cmd.Env, "ADAPT_CRASH_KILL_WRITE="+strconv.Itoa(killWrite))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timer <-chan time.Time
	if killAfter > 0 {
		timer = time.After(killAfter)
	}
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok && ee.Sys().(syscall.WaitStatus).Signaled() {
			return true
		}
		require.NoError(t, err, "helper run %d: %s", run, stderr.String())
		return false
	case <-timer:
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
		return true
	}
}

func TestCrashAndResume(t *testing.T) {
	newSandbox(t) // skips where there is none
	if testing.Short() {
		t.Skip("the crash test runs the evaluation some 25 times")
	}
	// An uninterrupted run.
	whole := t.TempDir()
	require.False(t, runCrashHelper(t, whole, 0, 0, 0))
	want, err := os.ReadFile(filepath.Join(whole, "report.json"))
	require.NoError(t, err)
	var rep report.Report
	require.NoError(t, json.Unmarshal(want, &rep))
	require.NotZero(t, rep.Outcomes[report.OutcomeModelError], "the model failed some samples for good")
	require.NotZero(t, rep.Outcomes[report.OutcomeInfraError], "the runner failed some checks for good")
	require.NotEmpty(t, rep.Unscored)

	// The same evaluation, killed at seeded random points and resumed.
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(20261124, 1))
	kills, midWrite := 0, 0
	for run := 1; ; run++ {
		answered, checked := finishedKeys(t, filepath.Join(dir, "run.jsonl"))
		killWrite, killAfter := 0, time.Duration(0)
		if kills < 24 {
			if run%2 == 1 {
				killWrite = 1 + rng.IntN(8)
			} else {
				killAfter = time.Duration(20+rng.IntN(150)) * time.Millisecond
			}
		}
		killed := runCrashHelper(t, dir, run, killWrite, killAfter)
		for _, line := range readLog(t, filepath.Join(dir, fmt.Sprintf("check-%d.log", run))) {
			assert.False(t, checked[line], "run %d checked %q again after it was journaled", run, line)
		}
		for _, line := range readLog(t, filepath.Join(dir, fmt.Sprintf("model-%d.log", run))) {
			task, samples, _ := strings.Cut(line, " ")
			for _, s := range strings.Fields(strings.Trim(samples, "[]")) {
				assert.False(t, answered[task+" "+s], "run %d asked the model again for %s sample %s", run, task, s)
			}
		}
		if !killed {
			break
		}
		kills++
		if killWrite > 0 {
			midWrite++
		}
		require.Less(t, run, 200, "the evaluation never finished")
	}
	t.Logf("%d kills (%d in the middle of a journal write)", kills, midWrite)
	assert.GreaterOrEqual(t, kills, 20)
	assert.GreaterOrEqual(t, midWrite, 10)
	got, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "the resumed report is the uninterrupted one, byte for byte")
	checkJournalLines(t, filepath.Join(dir, "run.jsonl"))
}
