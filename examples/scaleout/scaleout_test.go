package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/adaptbench/adaptbench/exec/sandbox"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// build compiles this program into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	sb, err := sandbox.New(nil)
	if errors.Is(err, sandbox.ErrNoNamespaces) {
		exectest.SkipWithout(t, "no sandbox on this machine: %v", err)
	}
	require.NoError(t, err)
	sb.Close()
	bin := filepath.Join(t.TempDir(), "scaleout")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// clean is the environment without any scheduler's variables.
func clean(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JOB_COMPLETION_INDEX=") && !strings.HasPrefix(kv, "SLURM_ARRAY_") && !strings.HasPrefix(kv, "AWS_BATCH_JOB_ARRAY_") && !strings.HasPrefix(kv, "BATCH_TASK_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

func TestShardProcessesMergeToSingleRun(t *testing.T) {
	bin := build(t)
	// Directories that do not exist yet: run creates them (every shard
	// at once), as the README's example expects.
	single, sharded := filepath.Join(t.TempDir(), "single", "results"), filepath.Join(t.TempDir(), "sharded")
	cmd := exec.Command(bin, "run", "-out", single, "-model", "identity")
	cmd.Env = clean()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, f := range []string{"run.jsonl", "report.html", "report.json", "report.md"} {
		assert.Contains(t, string(out), "wrote "+filepath.Join(single, f)+"\n", "one line per file written")
	}

	// Three shard processes at once, as an Indexed Job starts them.
	var wg sync.WaitGroup
	errs := make([]error, 3)
	outs := make([][]byte, 3)
	for i := range 3 {
		wg.Go(func() {
			cmd := exec.Command(bin, "run", "-shards", "3", "-out", sharded, "-model", "identity")
			cmd.Env = clean(fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
			outs[i], errs[i] = cmd.CombinedOutput()
		})
	}
	wg.Wait()
	for i := range 3 {
		require.NoError(t, errs[i], "shard %d: %s", i, outs[i])
		assert.Contains(t, string(outs[i]), fmt.Sprintf("shard %d of 3", i))
		assert.FileExists(t, filepath.Join(sharded, fmt.Sprintf("shard-%d-of-3.jsonl", i)))
	}
	// A merge before the last shard is there fails and names it.
	last := filepath.Join(sharded, "shard-2-of-3.jsonl")
	require.NoError(t, os.Rename(last, last+".away"))
	cmd = exec.Command(bin, "merge", "-out", sharded)
	cmd.Env = clean()
	out, err = cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "shard 2 of 3, whose journal was not given")
	assert.Contains(t, string(out), "pass -partial to merge anyway", "the command's user is told the flag, not the library's option")
	assert.NotContains(t, string(out), "MergeOptions")
	require.NoError(t, os.Rename(last+".away", last))

	cmd = exec.Command(bin, "merge", "-out", sharded)
	cmd.Env = clean()
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	want, err := os.ReadFile(filepath.Join(single, "report.json"))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(sharded, "report.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "three shard processes merge into the single run's report, byte for byte")
	assert.Contains(t, string(want), `"wrong-name"`, "the identity model's answers are scored, not all passes")

	// Slurm's variables pick the same shards.
	slurm := t.TempDir()
	for i := range 3 {
		cmd := exec.Command(bin, "run", "-out", slurm, "-model", "identity")
		cmd.Env = clean(fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i+1), "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=3", "SLURM_ARRAY_TASK_COUNT=3")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Contains(t, string(out), fmt.Sprintf("shard %d of 3", i), "array task %d is shard %d", i+1, i)
	}
	cmd = exec.Command(bin, "merge", "-out", slurm)
	cmd.Env = clean()
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err = os.ReadFile(filepath.Join(slurm, "report.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "a Slurm array's shards merge into the single run's report")
}

func TestJobManifest(t *testing.T) {
	b, err := os.ReadFile("job.yaml")
	require.NoError(t, err)
	var job struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Spec       struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Parallelism    int    `yaml:"parallelism"`
			Template       struct {
				Spec struct {
					RestartPolicy string `yaml:"restartPolicy"`
					Containers    []struct {
						Command []string `yaml:"command"`
						Env     []struct {
							Name      string `yaml:"name"`
							ValueFrom struct {
								FieldRef struct {
									FieldPath string `yaml:"fieldPath"`
								} `yaml:"fieldRef"`
							} `yaml:"valueFrom"`
						} `yaml:"env"`
						VolumeMounts []struct {
							MountPath string `yaml:"mountPath"`
						} `yaml:"volumeMounts"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	require.NoError(t, dec.Decode(&job))
	assert.Equal(t, "batch/v1", job.APIVersion)
	assert.Equal(t, "Job", job.Kind)
	assert.Equal(t, "Indexed", job.Spec.CompletionMode, "an Indexed Job gives each pod its index")
	require.Len(t, job.Spec.Template.Spec.Containers, 1)
	c := job.Spec.Template.Spec.Containers[0]
	require.GreaterOrEqual(t, len(c.Command), 4)
	assert.Equal(t, []string{"scaleout", "run", "-shards", fmt.Sprint(job.Spec.Completions)}, c.Command[:4], "the shard count is the Job's completions")
	require.Len(t, c.Env, 1)
	assert.Equal(t, "JOB_COMPLETION_INDEX", c.Env[0].Name)
	assert.Equal(t, "metadata.annotations['batch.kubernetes.io/job-completion-index']", c.Env[0].ValueFrom.FieldRef.FieldPath)
	out := c.Command[slicesIndex(c.Command, "-out")+1]
	require.Len(t, c.VolumeMounts, 1)
	assert.Equal(t, out, c.VolumeMounts[0].MountPath, "the journals go to the shared volume")
}

func slicesIndex(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -2
}

func TestSlurmScript(t *testing.T) {
	b, err := os.ReadFile("slurm.sh")
	require.NoError(t, err)
	s := string(b)
	m := regexp.MustCompile(`(?m)^#SBATCH --array=0-(\d+)$`).FindStringSubmatch(s)
	require.NotNil(t, m, "a dense array from 0")
	assert.Regexp(t, `(?m)^exec scaleout run -out "\$RESULTS"$`, s, "the shard comes from Slurm's variables")
	out, err := exec.Command("bash", "-n", "slurm.sh").CombinedOutput()
	assert.NoError(t, err, "%s", out)
}

func TestContainerfileHasTheTestPackages(t *testing.T) {
	script, err := os.ReadFile("../../scripts/test.sh")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?s)\npackages=\((.*?)\n\)`).FindSubmatch(script)
	require.NotNil(t, m)
	var want []string
	for _, line := range strings.Split(string(m[1]), "\n") {
		line, _, _ = strings.Cut(line, "#")
		want = append(want, strings.Fields(line)...)
	}
	require.NotEmpty(t, want)
	cf, err := os.ReadFile("Containerfile")
	require.NoError(t, err)
	have := strings.Fields(string(cf))
	for _, p := range want {
		assert.Contains(t, have, p, "the image installs %s as the tests do", p)
	}
	assert.Contains(t, string(cf), "FROM debian:bookworm")
}

// TestProgressOnATerminal runs the program with its standard error on a
// terminal: the shared progress display draws one bar that ends at 100%.
func TestProgressOnATerminal(t *testing.T) {
	bin := build(t)
	term := testenv.OpenTerminal(t)
	cmd := exec.Command(bin, "run", "-out", t.TempDir(), "-model", "reference")
	cmd.Env = clean()
	cmd.Stderr = term.TTY
	require.NoError(t, cmd.Run())
	raw := term.Output()
	bars, _ := testenv.Bars(raw)
	assert.Regexp(t, `^reference, all tasks samples \(\d+ passed\)$`, strings.Join(bars, "|"), "%q", raw)
}

// TestRunAsOrdinaryUser runs the README's command as an ordinary user
// (uid 65534, a home of its own): `scaleout run -out DIR`, DIR not there
// yet, then merge's reports, each file named as it is written.
func TestRunAsOrdinaryUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("running as an ordinary user already: the other tests show it")
	}
	bin := build(t)
	dir, err := os.MkdirTemp("", "adaptbench-scaleout-user-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	// The program where the user can run it, and a home of the user's.
	userBin := filepath.Join(dir, "scaleout")
	b, err := os.ReadFile(bin)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(userBin, b, 0o755))
	home := filepath.Join(dir, "home")
	require.NoError(t, os.Mkdir(home, 0o700))
	require.NoError(t, os.Chown(home, 65534, 65534))
	out := filepath.Join(home, "results", "demo")
	cmd := exec.Command(userBin, "run", "-out", out, "-model", "identity")
	cmd.Dir = home
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + home, "LANG=C.UTF-8"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534, Groups: []uint32{}}}
	o, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", o)
	for _, f := range []string{"run.jsonl", "report.html", "report.json", "report.md"} {
		assert.Contains(t, string(o), "wrote "+filepath.Join(out, f)+"\n")
		fi, err := os.Stat(filepath.Join(out, f))
		if assert.NoError(t, err) {
			assert.Equal(t, uint32(65534), fi.Sys().(*syscall.Stat_t).Uid, "%s is the user's", f)
		}
	}
}
