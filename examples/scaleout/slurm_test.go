package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestSlurmArray submits slurm.sh, unchanged, to a real one-node Slurm
// cluster (Debian's slurm-wlm and munge, started by the test in a private
// directory on free ports and stopped at its end) as the array of three it
// declares, waits for it, merges the shards' journals and compares the
// report with a single run's, byte for byte.
func TestSlurmArray(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	for _, tool := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			exectest.SkipWithout(t, "Slurm is not installed (%s: %v): apt-get install slurm-wlm munge", tool, err)
		}
	}
	if os.Geteuid() != 0 {
		exectest.SkipWithout(t, "a one-node Slurm cluster's slurmd runs jobs as root")
	}
	bin := build(t)
	single := t.TempDir()
	cmd := exec.Command(bin, "run", "-out", single)
	cmd.Env = clean()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	c := startSlurm(t)
	results := t.TempDir()
	start := time.Now()
	sbatch := exec.Command("sbatch", "--parsable", "--wait", "--chdir", results,
		"--output", filepath.Join(c.dir, "job-%A_%a.out"), "slurm.sh")
	sbatch.Env = c.env(clean("RESULTS="+results, "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))...)
	out, err = sbatch.CombinedOutput()
	if err != nil {
		logs, _ := filepath.Glob(filepath.Join(c.dir, "job-*.out"))
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", filepath.Base(l), b)
		}
	}
	require.NoError(t, err, "sbatch --wait: %s", out)
	job := strings.TrimSpace(string(out))
	require.Regexp(t, `^\d+$`, job, "sbatch --parsable prints the job id")
	t.Logf("the array of 3 ran in %s", time.Since(start).Round(time.Millisecond))

	// squeue has nothing left of the job, and scontrol (which keeps a
	// finished job for MinJobAge) says each of the three array tasks
	// completed with exit code 0.
	q := c.run(t, "squeue", "-h", "-j", job)
	assert.Empty(t, strings.TrimSpace(q), "squeue after sbatch --wait")
	show := c.run(t, "scontrol", "-o", "show", "job", job)
	tasks := regexp.MustCompile(`ArrayTaskId=(\d+) .*?JobState=(\S+) .*?ExitCode=(\S+)`).FindAllStringSubmatch(show, -1)
	require.Len(t, tasks, 3, "scontrol show job:\n%s", show)
	for _, m := range tasks {
		assert.Equal(t, []string{"COMPLETED", "0:0"}, m[2:], "array task %s", m[1])
	}
	for i := range 3 {
		assert.FileExists(t, filepath.Join(results, fmt.Sprintf("shard-%d-of-3.jsonl", i)))
	}

	cmd = exec.Command(bin, "merge", "-out", results)
	cmd.Env = clean()
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	want, err := os.ReadFile(filepath.Join(single, "report.json"))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(results, "report.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "the Slurm array's shards merge into the single run's report, byte for byte")
}

// cluster is a one-node Slurm cluster of the test's own.
type cluster struct {
	dir  string // configuration, state, logs, munge's key and socket
	conf string
}

// env is the environment of a Slurm client command of the cluster.
func (c *cluster) env(base ...string) []string {
	return append(base, "SLURM_CONF="+c.conf)
}

// run runs a Slurm client command and returns its standard output.
func (c *cluster) run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = c.env(os.Environ()...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), stderr.String())
	return string(out)
}

// startSlurm starts munged, slurmctld and slurmd in the foreground under
// a private directory, waits until the node is idle, and stops all three
// when the test ends.
func startSlurm(t *testing.T) *cluster {
	t.Helper()
	// munged wants every directory above its socket searchable by all,
	// which a test's temporary directory (0700) is not.
	dir, err := os.MkdirTemp("", "adaptbench-slurm-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	for _, d := range []string{"state", "spool"} {
		require.NoError(t, os.Mkdir(filepath.Join(dir, d), 0o755))
	}
	key := make([]byte, 1024)
	_, err = rand.Read(key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "munge.key"), key, 0o400))
	host, err := os.Hostname()
	require.NoError(t, err)
	host, _, _ = strings.Cut(host, ".")
	c := &cluster{dir: dir, conf: filepath.Join(dir, "slurm.conf")}
	require.NoError(t, os.WriteFile(c.conf, []byte(slurmConf(dir, host, freePort(t), freePort(t))), 0o644))

	daemon(t, dir, "munged", "-F", "-f", "--socket="+filepath.Join(dir, "munge.socket"),
		"--key-file="+filepath.Join(dir, "munge.key"), "--pid-file="+filepath.Join(dir, "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munged.seed"), "--log-file="+filepath.Join(dir, "munged.log"))
	waitFor(t, "munged's socket", func() bool {
		_, err := os.Stat(filepath.Join(dir, "munge.socket"))
		return err == nil
	})
	daemon(t, dir, "slurmctld", "-D", "-f", c.conf)
	daemon(t, dir, "slurmd", "-D", "-f", c.conf)
	waitFor(t, "the node to be idle", func() bool {
		cmd := exec.Command("sinfo", "-h", "-o", "%t")
		cmd.Env = c.env(os.Environ()...)
		out, err := cmd.Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})
	return c
}

// slurmConf is a one-node cluster on host, with nothing that needs
// cgroups, accounting or a database: processes are tracked through /proc.
func slurmConf(dir, host string, ctldPort, dPort int) string {
	mem := 1024
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if m := regexp.MustCompile(`MemTotal:\s+(\d+) kB`).FindSubmatch(b); m != nil {
			kb, _ := strconv.Atoi(string(m[1]))
			mem = kb/1024 - 1024
		}
	}
	return fmt.Sprintf(`ClusterName=adaptbench
SlurmctldHost=%[2]s
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
AuthType=auth/munge
AuthInfo=socket=%[1]s/munge.socket
CredType=cred/munge
StateSaveLocation=%[1]s/state
SlurmdSpoolDir=%[1]s/spool
SlurmctldPidFile=%[1]s/slurmctld.pid
SlurmdPidFile=%[1]s/slurmd.pid
SlurmctldLogFile=%[1]s/slurmctld.log
SlurmdLogFile=%[1]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=%[2]s CPUs=%[5]d RealMemory=%[6]d State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, dir, host, ctldPort, dPort, runtime.NumCPU(), mem)
}

// daemon starts a daemon in the foreground, its output in dir, and
// stops it (SIGTERM, then SIGKILL) when the test ends.
func daemon(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name+".out"))
	require.NoError(t, err)
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start(), name)
	done := make(chan struct{})
	go func() { cmd.Wait(); f.Close(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, name+".out"))
			t.Logf("%s:\n%s", name, b)
		}
	})
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("waited a minute for %s", what)
}

// freePort is a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
