package versioned_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
)

var isolationCoverage = flag.Bool("isolation-coverage", false, "run TestSystemIsolationCoverage, GitChameleon's isolation coverage on the system python3")

// TestSystemIsolationCoverage measures GitChameleon's isolation coverage
// where this machine can run it: every problem whose library the system
// python3 has (see TestSystemAllLibraries), its reference (the ground
// truth) run in-process and isolated, in the system environment
// (IsolationAuto). A task runs isolated when every test's verdict is the
// same both ways, whether the reference passes there or not (the versions
// are Debian's, not the problem's). It logs the share per library and
// why each task that cannot is kept in-process (IsolationRequired says).
// Its counts are logged, not asserted: they depend on the libraries this
// machine has. A measurement, not a check (it runs every such problem's
// reference twice, most of this package's time), so it runs only when
// asked: go test -run TestSystemIsolationCoverage ./versioned -isolation-coverage.
func TestSystemIsolationCoverage(t *testing.T) {
	if !*isolationCoverage {
		t.Skip("a measurement: run with -isolation-coverage")
	}
	dir := dataDir(t)
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	ctx := context.Background()
	sys := &versioned.Cache{Dir: cacheDir(t), Builder: &versioned.System{}}
	tasks, _ := systemTasks(t, dir, sys)
	fs, p, lim := systemRunner(t, sys)
	start := time.Now()
	rep, err := adapt.Evaluate(ctx, tasks, adapt.Reference, &adapt.Options{Runner: fs, Environments: p, NoGold: true,
		Limits: lim, Isolation: adapt.IsolationAuto})
	if err != nil {
		t.Fatal(err)
	}
	type count struct{ iso, n, isoTests, tests int }
	per := map[string]*count{}
	var all count
	var not []int
	for i, tr := range rep.PerTask {
		lib := tasks[i].Labels["library"]
		if per[lib] == nil {
			per[lib] = &count{}
		}
		c, n := per[lib], len(tasks[i].Tests)
		c.n, c.tests, all.n, all.tests = c.n+1, c.tests+n, all.n+1, all.tests+n
		if tr.Samples[0].Isolation == "process" {
			c.iso, c.isoTests, all.iso, all.isoTests = c.iso+1, c.isoTests+n, all.iso+1, all.isoTests+n
		} else {
			not = append(not, i)
		}
	}
	libs := make([]string, 0, len(per))
	for lib := range per {
		libs = append(libs, lib)
	}
	sort.Strings(libs)
	var b strings.Builder
	for _, lib := range libs {
		c := per[lib]
		b.WriteString("\n  " + lib + ": " + ratio(c.iso, c.n) + " tasks, " + ratio(c.isoTests, c.tests) + " tests")
	}
	t.Logf("GitChameleon (system python3): %s tasks, %s tests isolated, in %v%s", ratio(all.iso, all.n), ratio(all.isoTests, all.tests),
		time.Since(start).Round(time.Second), b.String())
	chk := &adapt.Checker{Runner: fs, Environments: p, Limits: lim, Isolation: adapt.IsolationRequired}
	for _, i := range not {
		_, err := chk.Check(ctx, &tasks[i], adapt.Answer{Code: tasks[i].Reference})
		t.Logf("%s (%s) runs in-process: %v", tasks[i].ID, tasks[i].Labels["library"], err)
	}
}

func ratio(a, b int) string {
	if b == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d (%.1f%%)", a, b, 100*float64(a)/float64(b))
}
