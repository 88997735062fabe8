package exec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A JUnitRound is one run of the tests in [JUnit.TestRounds]: the tests
// Tests names (see JUnit), with the class directories Classes (relative
// to the workspace) ahead of the build's on the class path. A mutant's
// class files, say.
type JUnitRound struct {
	Classes []string
	Tests   []string
}

// maxRoundsPerJVM bounds the rounds one JVM runs, so that the classes of
// many rounds never wait long to be unloaded.
const maxRoundsPerJVM = 64

// TestRounds builds the workspace once and runs the rounds in turn in as
// few JVMs as it can, each round with a class loader of its own over its
// Classes and the build's, so that a round sees its own classes and its
// own static state, and runs them as Test would run its tests in a JVM of
// their own. It returns one Suite per round; a round's Run holds the
// round's wall time (not the CPU time, which the JVM's rounds share) and
// the status StatusOK. A nil Suite is a round that was not decided here
// and should be run alone with Test: one that used spec.Limits' CPU time
// (the JVM's, all its threads) or wall time (the JVM is then ended, and
// the next round starts in a new one), or one that a JVM that died or hit
// a limit did not finish. A round that leaves the JVM changed (a thread still
// running, a system property, the default locale or time zone, a standard
// stream) keeps its outcomes, and the next round starts in a new JVM.
// spec.Limits are each round's (spec.Tests is not used); a build that
// does not compile is every round's Compile. Coverage is not supported.
//
// Rounds share a JVM: code of one round can change what a later round
// reports (its results file is theirs; one that empties it leaves the
// rounds whose events it took undecided). Use rounds for code that is
// trusted as much as each other round's, such as the mutants of one
// project, never for answers of different models or samples.
func (j JUnit) TestRounds(ctx context.Context, r Runner, spec TestSpec, rounds []JUnitRound) ([]*Suite, error) {
	if j.Coverage != nil {
		return nil, fmt.Errorf("exec: JUnit: rounds with coverage are not supported")
	}
	for i, rd := range rounds {
		for _, n := range rd.Tests {
			if !junitName.MatchString(n) && !junitUID.MatchString(n) {
				return nil, fmt.Errorf("exec: JUnit: round %d: %q is not a test name (pkg.Class, pkg.Class#method, pkg.Class#method(types), pkg.Class#method[3], or a unique ID [engine:e]/[type:value] escaped with %%XX)", i, n)
			}
		}
		for _, c := range rd.Classes {
			if c == "" || strings.ContainsAny(c, "\n\r:") || filepath.IsAbs(c) {
				return nil, fmt.Errorf("exec: JUnit: round %d: class directory %q: want a path relative to the workspace without ':' or a line break", i, c)
			}
		}
	}
	st, err := j.setup(ctx, r, spec)
	if st != nil {
		defer st.sc.remove()
	}
	if err != nil {
		return nil, err
	}
	suites := make([]*Suite, len(rounds))
	if st.build.Compile != nil {
		for i := range suites {
			suites[i] = &Suite{Build: st.build.Run, Compile: st.build.Compile}
		}
		return suites, nil
	}
	lim := spec.Limits.WithDefaults()
	for next, jvm := 0, 0; next < len(rounds); jvm++ {
		if err := ctx.Err(); err != nil {
			return suites, err
		}
		batch := rounds[next:min(len(rounds), next+maxRoundsPerJVM)]
		var b strings.Builder
		for _, rd := range batch {
			b.WriteString("R\n")
			for _, c := range rd.Classes {
				b.WriteString("C " + c + "\n")
			}
			for _, t := range rd.Tests {
				b.WriteString("T " + t + "\n")
			}
		}
		name := "rounds-" + strconv.Itoa(jvm)
		if err := os.WriteFile(filepath.Join(st.sc.host, name+".txt"), []byte(b.String()), 0o644); err != nil {
			return suites, fmt.Errorf("exec: JUnit: %w", err)
		}
		// The JVM's limits hold every round of it; each round is held to
		// the CPU and wall time of one by the reporter's watchdog.
		jl := spec.Limits
		n := time.Duration(len(batch))
		jl.CPUTime, jl.WallTime = lim.CPUTime*n, lim.WallTime*n
		classpath := append(st.classpath(), st.build.Classpath...)
		args := append(st.jvm(j.JVMFlags, jl), junitModuleFlags(st.reporter, classpath)...)
		args = append(args, "--rounds="+st.sc.path(name+".txt"),
			"--round-cpu-ms="+strconv.FormatInt(lim.CPUTime.Milliseconds(), 10),
			"--round-wall-ms="+strconv.FormatInt(lim.WallTime.Milliseconds(), 10),
			st.sc.path(name+".jsonl"))
		args = append(append(args, st.build.Classes...), "--")
		key := newNonce()
		res, err := r.Run(ctx, Job{Dir: spec.Dir, Args: args, Env: append(slices.Clone(jvmEnv), spec.Env...), Stdin: strings.NewReader(key + "\n"), Limits: jl, ReadOnly: st.readOnly})
		if err != nil {
			return suites, runErr("run JUnit rounds", res, err)
		}
		decided, last := splitRounds(parseSigned(st.sc.readLimited(name+".jsonl", jl, &res), key), len(batch))
		if last < 0 && !limitStatus(res.Status) && !bytes.HasPrefix(res.Stderr, []byte(reporterMark)) {
			// Not one round started, nor the reporter: it could not run.
			return suites, fmt.Errorf("exec: the test JVM of rounds %d to %d did not start (%s): %s", next, next+len(batch)-1, res.Detail, tail(res.Stderr, 2048))
		}
		for i, d := range decided {
			if d == nil {
				continue
			}
			tests, _, _, err := assemble(assembly{events: d.events, run: Result{Status: StatusOK}, what: "test JVM"})
			if err != nil {
				return suites, err
			}
			suites[next+i] = &Suite{Build: st.build.Run, Run: Result{Status: StatusOK, WallTime: d.wall}, Tests: tests}
		}
		// Resume after the last round that started: a round that did
		// not finish is left to Test, and so is the first when the
		// events say nothing (a round deleted them).
		next += max(last+1, 1)
	}
	return suites, nil
}

// roundEvents is what one finished round reported.
type roundEvents struct {
	events []event
	wall   time.Duration
}

// splitRounds splits a rounds JVM's events into its n rounds: a round
// that ended (round-end) gets its events, one that did not, nil. last is
// the number of the last round that started, -1 for none. Evidence of
// tampering ends the split: the round it is in is undecided.
func splitRounds(events []event, n int) (decided []*roundEvents, last int) {
	decided = make([]*roundEvents, n)
	last = -1
	cur := -1
	var buf []event
	for _, e := range events {
		switch e.kind {
		case "tamper", "over":
			// A round that tampered, or whose results are more than the
			// host keeps, is left to Test, which reports it; so is every
			// round after it in this JVM.
			return decided, last
		case "round":
			// Rounds run in order; anything else is not the reporter's.
			if e.round != last+1 || e.round >= n {
				return decided, last
			}
			cur, last, buf = e.round, e.round, nil
		case "round-end":
			if cur < 0 || e.round != cur {
				return decided, last
			}
			decided[cur] = &roundEvents{events: append(buf, event{kind: "done"}), wall: e.duration}
			cur = -1
		case "round-timeout", "stop", "done":
			cur = -1
		case "hello":
		default:
			if cur >= 0 {
				buf = append(buf, e)
			}
		}
	}
	return decided, last
}
