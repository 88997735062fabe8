package testenv

import (
	"context"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// UnprivilegedUID is the user the tests are rerun as.
const UnprivilegedUID = 65534

// envRerun marks the rerun, so that RunUnprivileged does not recurse.
const envRerun = "ADAPTBENCH_UNPRIVILEGED_RERUN"

// UnprivilegedRerun reports whether this process is a rerun made by RunUnprivileged.
func UnprivilegedRerun() bool { return os.Getenv(envRerun) == "1" }

// RunUnprivileged reruns the tests named (exact top-level names) as UnprivilegedUID and fails t
// unless every one of them passed there. It skips when the caller is not
// root (the whole suite then runs unprivileged already) and in the rerun.
func RunUnprivileged(t *testing.T, tests ...string) {
	t.Helper()
	if UnprivilegedRerun() {
		t.Skip("this is the unprivileged rerun")
	}
	if os.Geteuid() != 0 {
		t.Skipf("running as uid %d already: every test of the suite runs unprivileged", os.Geteuid())
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "adaptbench-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	bin := filepath.Join(dir, filepath.Base(exe))
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(exe, bin); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{home, filepath.Join(home, "tmp")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, UnprivilegedUID, UnprivilegedUID); err != nil {
			t.Fatal(err)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	deadline, ok := t.Deadline()
	if !ok {
		deadline = time.Now().Add(20 * time.Minute)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(-30*time.Second))
	defer cancel()
	cmd := osexec.CommandContext(ctx, bin, "-test.run", "^("+strings.Join(tests, "|")+")$", "-test.count=1", "-test.v")
	cmd.Dir = wd
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"GOCACHE=" + goCache(t, home),
		"GOMODCACHE=" + filepath.Join(home, "gomodcache"),
		"GOPROXY=off",
		"GOTOOLCHAIN=local",
		"TMPDIR=" + filepath.Join(home, "tmp"),
		"LANG=C.UTF-8",
		envRerun + "=1",
	}
	for _, k := range []string{"ADAPTBENCH_REQUIRE_DATA", "ADAPTBENCH_DATA"} {
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Credential: &syscall.Credential{Uid: UnprivilegedUID, Gid: UnprivilegedUID, Groups: []uint32{}},
		Pdeathsig:  syscall.SIGKILL,
	}
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("rerun as uid %d: %s in %s", UnprivilegedUID, strings.Join(tests, ", "), time.Since(start).Round(time.Millisecond))
	var failed []string
	for _, name := range tests {
		re := regexp.MustCompile(`(?m)^--- PASS: ` + regexp.QuoteMeta(name) + ` \(`)
		if !re.Match(out) {
			failed = append(failed, name)
		}
	}
	if len(failed) > 0 || err != nil {
		t.Fatalf("as uid %d, %s did not pass (%v):\n%s", UnprivilegedUID, strings.Join(failed, ", "), err, lastLines(out, 200))
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "    --- ") {
			t.Log(line)
		}
	}
}

// goCache is a Go build cache of UnprivilegedUID's own that lasts from run to run (a
// cold one costs a minute of compiling the standard library), or a fresh
// one under home where that cannot be had safely.
func goCache(t *testing.T, home string) string {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("adaptbench-gocache-%d", UnprivilegedUID))
	if err := os.Mkdir(dir, 0o700); err == nil {
		if err := os.Chown(dir, UnprivilegedUID, UnprivilegedUID); err == nil {
			return dir
		}
	}
	var st syscall.Stat_t
	if err := syscall.Lstat(dir, &st); err == nil && st.Uid == UnprivilegedUID && st.Mode&syscall.S_IFMT == syscall.S_IFDIR && st.Mode&0o077 == 0 {
		return dir
	}
	t.Logf("%s is not a directory of uid %d's alone: a fresh Go build cache", dir, UnprivilegedUID)
	return filepath.Join(home, "gocache")
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// lastLines is the last n lines of out.
func lastLines(out []byte, n int) string {
	lines := strings.Split(string(out), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[%d lines omitted]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
