package maven

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/internal/buildsys"
)

// The shared JVMs of Maven's checks (Config.TestEach off): a
// validation step hands its checks to checkBatch at once, which runs
// them as rounds of exec.JUnit.TestRounds, each mutant's class files
// (compiled by Prepare) in a class loader of its own ahead of the
// project's classes, so that one JVM start serves dozens of checks
// instead of one. The first round is a control: the original classes
// with every test the checks name, which must all pass (they are tests
// that passed on the original in every baseline run), or no round of the
// batch is trusted and every check is made alone. A round the JVMs did
// not decide (it ran out of time, or its JVM died) is made alone too, so
// a mutant that loops or exits gets the verdict Check gives it.

// roundsDir is where CheckBatch puts the mutants' class files, in the
// project copy.
const roundsDir = buildsys.RunDir + "/rounds"

// CheckBatch makes the checks (for mutate.Generate) it can in shared JVMs (see above); a nil
// mutate.TestRun is one left to Check.
func (m *Project) CheckBatch(ctx context.Context, reqs []mutate.CheckRequest) ([]*mutate.TestRun, error) {
	outs := make([]*mutate.TestRun, len(reqs))
	if m.cfg.TestEach {
		return outs, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	host := filepath.Join(m.dir, filepath.FromSlash(roundsDir))
	os.RemoveAll(host)
	defer os.RemoveAll(host)
	var union []string
	var rounds []exec.JUnitRound
	var which []int             // the request of each round after the control
	dirs := map[string]string{} // a mutant's class directory, by key
	for i, q := range reqs {
		if q.File == "" {
			continue // the original: Check
		}
		pre := m.prepared.Get(q.File, q.Src)
		switch {
		case pre == nil:
			continue // compiled alone by Check
		case pre.compile != "":
			outs[i] = &mutate.TestRun{Compile: pre.compile}
			continue
		}
		k := buildsys.MutantKey(q.File, q.Src)
		dir, ok := dirs[k]
		if !ok {
			dir = path.Join(roundsDir, strconv.Itoa(len(dirs)))
			if err := pre.writeClasses(filepath.Join(m.dir, filepath.FromSlash(dir))); err != nil {
				return outs, fmt.Errorf("mutate: %w", err)
			}
			dirs[k] = dir
		}
		rounds = append(rounds, exec.JUnitRound{Classes: []string{dir}, Tests: q.Tests})
		which = append(which, i)
		union = append(union, q.Tests...)
	}
	if len(rounds) < 2 {
		return outs, nil // one JVM each is as cheap
	}
	slices.Sort(union)
	union = slices.Compact(union)
	rounds = append([]exec.JUnitRound{{Tests: union}}, rounds...)
	suites, err := m.junit(nil, nil).TestRounds(ctx, m.runner, exec.TestSpec{Dir: m.dir, Limits: m.cfg.Limits}, rounds)
	if err != nil {
		return outs, fmt.Errorf("mutate: shared JVMs: %w", err)
	}
	// The control round: the original's classes and the tests the checks
	// name, which all passed in the baseline. If they do not pass here
	// (they do not run alike in a class loader of their own), no round of
	// the batch is trusted.
	switch control := suites[0]; {
	case control == nil:
		return outs, errors.New("mutate: shared JVMs: the control round (the original's classes) was not decided")
	case control.Compile != nil:
		first, _, _ := strings.Cut(strings.TrimSpace(control.Compile.Output), "\n")
		return outs, fmt.Errorf("mutate: shared JVMs: the control round (the original's classes) did not load: %s", first)
	default:
		if run := testRunOf(control, union); len(run.Failed) > 0 {
			return outs, fmt.Errorf("mutate: shared JVMs: the control round (the original's classes) failed %s, which passed in the baseline", strings.Join(run.Failed, ", "))
		}
	}
	for j, i := range which {
		if s := suites[j+1]; s != nil {
			outs[i] = testRunOf(s, reqs[i].Tests)
		}
	}
	return outs, nil
}
