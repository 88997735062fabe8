package mutate_test

import (
	"context"
	"os"
	osexec "os/exec"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
)

// needMaven skips when the Debian packages the Maven project needs are
// missing.
func needMaven(t *testing.T) {
	t.Helper()
	if _, err := osexec.LookPath("mvn"); err != nil {
		exectest.SkipWithout(t, "mvn not installed (Debian package maven)")
	}
	for _, f := range []string{"/etc/maven/settings-debian.xml", "/usr/share/java/org.jacoco.agent.jar", exec.DefaultJUnitClasspath[0],
		"/usr/share/maven-repo/org/apache/maven/plugins/maven-surefire-plugin"} {
		if _, err := os.Stat(f); err != nil {
			exectest.SkipWithout(t, "%s missing (Debian packages maven-debian-helper, libjacoco-java, junit5, libsurefire-java)", f)
		}
	}
}

func TestMavenProject(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests dozens of mutants: 1.5 to 5 minutes")
	}
	needMaven(t)
	ctx := context.Background()
	sb := exectest.Sandbox(t)
	start := time.Now()
	mv, err := mutate.OpenMaven(ctx, "testdata/maven", sb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mv.Close()
	t.Logf("mvn test-compile: %v", time.Since(start).Round(time.Millisecond))
	res, err := mutate.Generate(ctx, mv, &mutate.Options{Seed: 1, Source: "shop", Fragments: 8, Levels: []mutate.Level{mutate.L1, mutate.L2}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tests, %d stable, flaky %v; fragments %d, covered %d, sampled %d; %d candidates, %d tasks in %v (build %v, tests %v)",
		len(res.Tests), len(res.Stable), res.Flaky, res.Fragments, res.Covered, res.Sampled,
		len(res.Candidates), len(res.Tasks), time.Since(start).Round(time.Millisecond), res.BuildTime.Round(time.Millisecond), res.TestTime.Round(time.Millisecond))
	res.Funnel.WriteTable(t.Output())
	g := res.Gates()
	t.Logf("gates:\n%s", g)
	if len(res.Tests) != 11 || len(res.Stable) != 11 {
		t.Errorf("%d tests, %d stable, want the 11 of testdata/maven, all passing", len(res.Tests), len(res.Stable))
	}
	if res.Covered == 0 || res.Covered != res.Fragments {
		t.Errorf("%d of %d fragments covered: every fragment of testdata/maven is tested", res.Covered, res.Fragments)
	}
	t.Logf("generated in %v", time.Since(start))
	if g.CompileShare < 0.70 || g.DetectShare < 0.60 {
		t.Errorf("gates missed: compile %.2f (>= 0.70), detect %.2f (>= 0.60)", g.CompileShare, g.DetectShare)
	}
	if len(g.Valid) < 6 {
		t.Errorf("valid L1 tasks for %d operators (%v), want at least 6", len(g.Valid), g.Valid)
	}
	for _, c := range res.Candidates {
		if c.Reason == mutate.ReasonInfra {
			t.Errorf("%s at %s:%d: harness failure: %s", c.Key(), c.File, c.Frag.Line, c.Detail)
		}
	}
	// adapt's JUnit driver compiles the whole workspace for every check
	// (seconds on a loaded machine): the reference and identity run on
	// every mutant, the two answer forms on four.
	tasks := res.Tasks
	all, some := perMutant(t, tasks, 4)
	checkTasks(t, all, some, sb)
}
