package mutate_test

import (
	"context"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
)

func TestMain(m *testing.M) { exectest.Main(m) }

// The real module the Go acceptance test mutates, fetched through the Go
// module proxy into the default module cache (or found there).
const (
	realModule  = "github.com/google/uuid"
	realVersion = "v1.6.0"
)

// fetchModule downloads a pinned module with "go mod download" and returns
// its directory; it skips when the module cannot be had (no proxy).
func fetchModule(tb testing.TB, path, version string) string {
	tb.Helper()
	cmd := osexec.Command("go", "mod", "download", "-json", path+"@"+version)
	cmd.Dir = tb.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); err != nil || jerr != nil || info.Dir == "" {
		tb.Skipf("cannot fetch %s@%s through the module proxy: %v %s", path, version, err, info.Error)
	}
	return info.Dir
}

func openReal(tb testing.TB) *mutate.GoModule {
	dir := fetchModule(tb, realModule, realVersion)
	gm, err := mutate.OpenGoModule(dir, exectest.Sandbox(tb), &mutate.GoConfig{
		Limits: exec.Limits{CPUTime: 20 * time.Second, WallTime: 30 * time.Second},
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { gm.Close() })
	return gm
}

func TestGoModuleReal(t *testing.T) {
	gm := openReal(t)
	ctx := context.Background()
	start := time.Now()
	res, err := mutate.Generate(ctx, gm, &mutate.Config{Seed: 1, Fragments: 25, Source: "uuid", Levels: []mutate.Level{mutate.L1, mutate.L2, mutate.L3, mutate.L4}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tests %d stable %d flaky %v; fragments %d covered %d sampled %d; %v (build %v, test %v)",
		len(res.Tests), len(res.Stable), res.Flaky, res.Fragments, res.Covered, res.Sampled, time.Since(start), res.BuildTime, res.TestTime)
	t.Logf("\n%s", res.Funnel.String())
	g := res.Gates()
	t.Logf("\n%s", g)
	reasons := map[string]int{}
	for _, c := range res.Candidates {
		reasons[c.Level.String()+" "+c.Reason.String()]++
		if c.Reason == mutate.ReasonCompile && c.Level == mutate.L1 {
			t.Logf("%s compile: %s", c.Key(), strings.SplitN(c.Detail, "\n", 3)[0:min(2, len(strings.SplitN(c.Detail, "\n", 3)))])
		}
	}
	t.Log(reasons, len(res.Tasks), filepath.Base(gm.Dir()))
}
