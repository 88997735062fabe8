package mutate

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/syntax"
	"github.com/adaptbench/adaptbench/internal/tracker"
)

// ComplexityLevel is a complexity level of the paper (L1 to L4): how many
// mutations a task combines. ContextLevel (C1 to C3) is the other axis:
// how much code around the snippet the prompt shows.
type ComplexityLevel uint8

// The levels. L2 combines two distinct operators, L3 three from at least two
// operators, L4 four or more from at least two (families are operators).
const (
	complexityInvalid ComplexityLevel = iota
	L1
	L2
	L3
	L4
)

func (l ComplexityLevel) String() string {
	if l >= L1 && l <= L4 {
		return fmt.Sprintf("L%d", l)
	}
	return fmt.Sprintf("ComplexityLevel(%d)", uint8(l))
}

// Policy says how the compile step treats a mutant that does not compile.
type Policy uint8

const (
	_ Policy = iota // the zero value is no policy
	// RequireCompile discards every mutant that does not compile (the
	// paper's literal pipeline).
	RequireCompile
	// AllowUnresolved keeps a mutant whose only compile errors are
	// unresolved names on the lines it changed: the compiler, not a test,
	// detects it. The digest's default for variable rename and identifier
	// resolution, whose purpose is an unresolved name.
	AllowUnresolved
)

func (p Policy) String() string {
	switch p {
	case RequireCompile:
		return "require_compile"
	case AllowUnresolved:
		return "allow_unresolved"
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// defaultPolicy returns the compile policy of the digest: AllowUnresolved
// for RenameVar and DropReceiver, RequireCompile for every other operator.
func defaultPolicy(op *Operator) Policy {
	if op == renameVar || op == dropReceiver {
		return AllowUnresolved
	}
	return RequireCompile
}

// Reason says why the pipeline discarded a mutant.
type Reason uint8

const (
	// ReasonNone is the zero value: the mutant was not discarded (a valid
	// one, or one not decided yet).
	ReasonNone        Reason = iota
	ReasonNoEdit             // the operators changed nothing
	ReasonOverlap            // the picks' edits overlap (a combination only)
	ReasonParse              // F′ has syntax errors (tree-sitter ERROR or MISSING nodes)
	ReasonCompile            // the project does not compile with F′
	ReasonNoFailure          // every relevant test still passes
	ReasonInfra              // the build or test harness failed
	ReasonConstituent        // a constituent of a combination is not valid on its own
	ReasonFlaky              // the relevant tests failed once but passed when run again
	ReasonEffective          // Options.RequireEffective: a constituent no test catches alone
)

var reasonNames = [...]string{"none", "no_edit", "overlap_conflict", "parse_error", "compile_error", "no_test_failure", "build_infra_error", "constituent_invalid", "flaky_failure", "effective_level_below"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// MarshalText implements encoding.TextMarshaler.
func (r Reason) MarshalText() ([]byte, error) {
	if r == ReasonNone || int(r) >= len(reasonNames) {
		return nil, fmt.Errorf("mutate: no reason to marshal (%d): the mutant was not discarded", uint8(r))
	}
	return []byte(r.String()), nil
}

// Funnel stages added by the pipeline after StageParsed.
const (
	StageCompiled   = "compiled"   // the project compiled with F′
	StageUnresolved = "unresolved" // did not compile, kept by AllowUnresolved
	StageDetected   = "detected"   // a relevant test failed, or AllowUnresolved kept it: a valid task
	StageEffective  = "effective"  // detected, and each constituent is detected alone (Candidate.Effective)
)

// Options configures Generate. The zero value and nil are ready to use.
type Options struct {
	// Ops are the operators to use. Nil means Operators.
	Ops []*Operator
	// Policy gives each operator's compile policy. Nil means
	// AllowUnresolved for RenameVar and DropReceiver, RequireCompile for
	// the others.
	Policy func(*Operator) Policy
	// Seed seeds every random choice.
	Seed uint64
	// Runs is how many baseline runs decide which tests are stable. 0
	// means 3.
	Runs int
	// Fragments bounds how many covered fragments are sampled (seeded). 0
	// means all.
	Fragments int
	// SitesPerOp bounds the L1 mutants per operator and fragment, drawn
	// from its sites. 0 means 1.
	SitesPerOp int
	// Levels lists the complexity levels to generate. Nil means L1 only.
	Levels []ComplexityLevel
	// PerLevel is how many combinations of each level above L1 are drawn
	// per fragment. 0 means 1.
	PerLevel int
	// Contexts lists the context levels tasks are made at. Nil means C1,
	// C2 and C3.
	Contexts []ContextLevel
	// Parallelism bounds the mutants validated at once. 0 means
	// exec.DefaultParallelism().
	Parallelism int
	// Progress, if set, is called after each mutant is compiled and
	// tested (Phase "validate"; Passed counts the valid tasks so far),
	// from one goroutine at a time.
	Progress func(report.Progress)
	// Source names the project in task IDs and provenance.
	Source string
	// RequireEffective discards a combination (L2 to L4) whose effective
	// level is below its level (Candidate.Effective): one with a
	// constituent that no test catches alone and the compiler does not
	// reject, with ReasonEffective, before its tests run.
	RequireEffective bool
	// Repo and Commit, when the project was read from a git repository at
	// a commit (package source: Snapshot.Repo and Snapshot.Commit, the
	// tree materialized for gomod.Open or maven.Open), are recorded in
	// every task's provenance, so that a report says exactly which code
	// its tasks came from. Set both or neither.
	Repo, Commit string
}

// A Candidate is one mutant the pipeline considered, with its verdict.
type Candidate struct {
	File  string
	Frag  *Fragment
	Level ComplexityLevel
	// Ops are the operators applied, in order; Seed seeded their choices.
	Ops  []string
	Seed uint64
	// Records say what each operator changed (ranges in the file).
	Records []Record
	// Src is the mutated file, F′ in place.
	Src []byte
	// Tests are the relevant tests: stable on the baseline, covering the
	// fragment.
	Tests []string
	// Reason is why the mutant was discarded, ReasonNone for a valid one.
	Reason Reason
	// Failing are the relevant tests that failed on F′; Unresolved is set
	// when AllowUnresolved kept a mutant that did not compile, TimedOut
	// when the test run hit a limit.
	Failing    []string
	Unresolved bool
	TimedOut   bool
	Policy     Policy
	Detail     string
	// Parts are, for a combination (L2 to L4), its constituents each
	// applied alone, in the order of Ops, with their own verdicts (an
	// L1 candidate of the same change when there is one). A combination
	// is discarded with ReasonConstituent when a part does not parse or
	// compile on its own (or, under AllowUnresolved, is not kept); a
	// part no test catches alone is allowed.
	Parts []*Candidate
}

// Valid reports whether the candidate became a task.
func (c *Candidate) Valid() bool { return c.Reason == ReasonNone && c.Src != nil }

// Effective returns the candidate's effective level: how many of its
// constituents are detected alone (a relevant test fails, or
// AllowUnresolved keeps it), at least L1. A combination of two changes,
// one of which no test catches alone, is as hard to find as its other
// change: L1, not L2. It is the candidate's level for an L1 candidate.
func (c *Candidate) Effective() ComplexityLevel {
	if c.Level == L1 {
		return L1
	}
	return ComplexityLevel(max(1, c.detectedParts()))
}

// detectedParts counts the constituents detected alone.
func (c *Candidate) detectedParts() int {
	n := 0
	for _, p := range c.Parts {
		if p.Valid() {
			n++
		}
	}
	return n
}

// DetectedBy says what caught a valid candidate, as its tasks' label
// LabelDetectedBy: "compile" (kept by AllowUnresolved), "timeout" (its
// test run hit a limit) or "test"; "" for an invalid one.
func (c *Candidate) DetectedBy() string {
	switch {
	case !c.Valid():
		return ""
	case c.Unresolved:
		return "compile"
	case c.TimedOut:
		return "timeout"
	}
	return "test"
}

// Key names the candidate's operator combination, "op" or "op1+op2".
func (c *Candidate) Key() string { return strings.Join(c.Ops, "+") }

// Result is what Generate produced.
type Result struct {
	// Tests are the project's tests; Stable those that passed in every
	// baseline run; Flaky those whose result changed between runs.
	Tests, Stable, Flaky []string
	// Fragments counts the candidate fragments found, Covered those with
	// a relevant test, Sampled those mutated.
	Fragments, Covered, Sampled int
	// Candidates are every mutant considered, in a deterministic order.
	Candidates []*Candidate
	// Funnel counts the stages per operator combination.
	Funnel report.Funnel
	// Tasks are the tasks of the valid candidates, one per context level;
	// From[i] is the candidate Tasks[i] was made from.
	Tasks []adapt.Task
	From  []*Candidate
	// BuildTime, TestTime and Total are the wall times spent building, in
	// test processes and in all of Generate's validation phase.
	BuildTime, TestTime, Total time.Duration
	// Batches says how the checks went where the project checks many
	// mutants at once (Maven's shared JVMs).
	Batches BatchStats
}

// BatchStats says how the checks of a project that checks many mutants at
// once (Maven: their tests in shared JVMs) went. Of Checks sent in
// batches, Alone were made one at a time after all: those of a batch too
// small to share a JVM, those their batch left undecided (a mutant that
// loops, exits or kills its JVM), and every check a batch that failed as
// a whole did not decide; Errors says why each such batch failed. The
// verdicts are the same either way: what a check made alone costs is
// time. With maven.Config.TestEach every check is made alone. Zero for
// projects that check one mutant at a time.
type BatchStats struct {
	Checks, Alone int
	Errors        []string
}

// Gates are the pilot's feasibility numbers over the L1 candidates.
type Gates struct {
	Parsed, Compiled, Unresolved, Detected int
	// CompileShare is Compiled/Parsed (the paper's gate: >= 0.70);
	// DetectShare is the share of compiled mutants a test caught (gate:
	// >= 0.60).
	CompileShare, DetectShare float64
	// Valid counts valid L1 tasks (mutants) per operator.
	Valid map[string]int
}

// Gates computes the pilot gates over the result's L1 candidates.
func (r *Result) Gates() Gates {
	g := Gates{Valid: map[string]int{}}
	caught := 0
	for _, c := range r.Candidates {
		if c.Level != L1 || c.Reason == ReasonNoEdit || c.Reason == ReasonParse || c.Reason == ReasonInfra {
			continue
		}
		g.Parsed++
		switch {
		case c.Reason == ReasonCompile:
		case c.Unresolved:
			g.Unresolved++
		default:
			g.Compiled++
			if c.Valid() {
				caught++
			}
		}
		if c.Valid() {
			g.Detected++
			g.Valid[c.Ops[0]]++
		}
	}
	if g.Parsed > 0 {
		g.CompileShare = float64(g.Compiled) / float64(g.Parsed)
	}
	if g.Compiled > 0 {
		g.DetectShare = float64(caught) / float64(g.Compiled)
	}
	return g
}

// The pilot gates of the paper: the shares of L1 mutants that must
// compile and, of those, be caught by a test.
const (
	compileGate = 0.70
	detectGate  = 0.60
)

// Err says which pilot gates fail, or returns nil when both pass. With no
// L1 mutant parsed, or none compiled, a gate could not be measured, and
// that is a failure too.
func (g Gates) Err() error {
	var failed []string
	switch {
	case g.Parsed == 0:
		failed = append(failed, "no L1 mutant parsed, so no gate was measured")
	case g.CompileShare < compileGate:
		failed = append(failed, fmt.Sprintf("compiled %.1f%% < %.0f%%", 100*g.CompileShare, 100*compileGate))
	}
	switch {
	case g.Parsed > 0 && g.Compiled == 0:
		failed = append(failed, "no L1 mutant compiled, so caught-by-tests was not measured")
	case g.Compiled > 0 && g.DetectShare < detectGate:
		failed = append(failed, fmt.Sprintf("caught by tests %.1f%% < %.0f%%", 100*g.DetectShare, 100*detectGate))
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("mutate: pilot gates failed: %s", strings.Join(failed, "; "))
}

// String formats the gates for people.
func (g Gates) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "L1 mutants parsed %d, compiled %d (%.1f%%, gate 70%%), kept unresolved %d, caught by tests %.1f%% of compiled (gate 60%%), valid %d\n",
		g.Parsed, g.Compiled, 100*g.CompileShare, g.Unresolved, 100*g.DetectShare, g.Detected)
	for _, op := range slices.Sorted(maps.Keys(g.Valid)) {
		fmt.Fprintf(&b, "  valid %-14s %d\n", op, g.Valid[op])
	}
	return b.String()
}

// CheckCandidates runs the compile and test steps of the pipeline on the
// candidates that are still undecided (Reason is ReasonNone and
// neither Unresolved nor Failing is set), at most opts.Parallelism at once
// (reporting to opts.Progress), and
// sets their verdicts. It returns the wall time spent building and in
// test processes, summed over the checks. The error is for a canceled
// ctx; a harness failure on one mutant is its ReasonInfra.
func CheckCandidates(ctx context.Context, p Project, cands []*Candidate, opts *Options) (build, test time.Duration, err error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Runs = cmpOr(o.Runs, 3)
	progress := tracker.New(o.Progress, "validate", len(undecided(cands)))
	progress.PassedAs = "valid" // candidates that became tasks
	return checkCandidates(ctx, p, cands, &o, progress, (*Candidate).Valid, new(BatchStats))
}

// undecided returns the candidates CheckCandidates checks.
func undecided(cands []*Candidate) []*Candidate {
	var todo []*Candidate
	for _, cand := range cands {
		if cand.Reason == ReasonNone && !cand.Unresolved && cand.Failing == nil {
			todo = append(todo, cand)
		}
	}
	return todo
}

// checkCandidates is CheckCandidates reporting to progress, counting as
// passed the candidates isTask accepts, and adding to stats how its
// batches went.
func checkCandidates(ctx context.Context, p Project, cands []*Candidate, o *Options, progress *tracker.Tracker, isTask func(*Candidate) bool, stats *BatchStats) (build, test time.Duration, err error) {
	if pp, ok := p.(preparer); ok {
		took, release, err := pp.Prepare(ctx, undecided(cands))
		build += took
		if err != nil {
			return build, test, err
		}
		defer release()
	}
	if bc, ok := p.(batchChecker); ok {
		b, t, err := checkBatched(ctx, p, bc, cands, o, progress, isTask, stats)
		return build + b, test + t, err
	}
	var mu sync.Mutex
	g := &errgroup.Group{}
	g.SetLimit(cmpOr(o.Parallelism, exec.DefaultParallelism()))
	for _, cand := range undecided(cands) {
		g.Go(func() error {
			out, err := p.Check(ctx, cand.File, cand.Src, cand.Tests)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				cand.Reason, cand.Detail = ReasonInfra, err.Error()
				progress.Done(false)
				return nil
			}
			mu.Lock()
			build += out.BuildTime
			test += out.TestTime
			mu.Unlock()
			judgeCandidate(cand, out, p.Lang())
			if err := confirmFailures(ctx, p, cand, o.Runs, func(out *TestRun) {
				mu.Lock()
				build += out.BuildTime
				test += out.TestTime
				mu.Unlock()
			}); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				cand.Reason, cand.Detail = ReasonInfra, err.Error()
			}
			progress.Done(isTask(cand))
			return nil
		})
	}
	err = g.Wait()
	return build, test, err
}

func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// coverage returns the lines each test covers, in one run when p is a
// batchCoverage.
func coverage(ctx context.Context, p Project, tests []string, parallelism int) ([]Lines, error) {
	if b, ok := p.(batchCoverage); ok {
		if len(tests) == 0 {
			return nil, nil
		}
		cov, err := b.CoverageAll(ctx, tests)
		if err == nil && len(cov) != len(tests) {
			err = fmt.Errorf("mutate: coverage of %d tests returned %d", len(tests), len(cov))
		}
		return cov, err
	}
	cov := make([]Lines, len(tests))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(parallelism)
	for i, t := range tests {
		g.Go(func() error {
			l, err := p.Coverage(gctx, t)
			cov[i] = l
			return err
		})
	}
	return cov, g.Wait()
}

// baseline runs every test runs times on the unmodified project.
func baseline(ctx context.Context, p Project, runs int, res *Result) error {
	passes := map[string]int{}
	for i := range runs {
		out, err := p.Check(ctx, "", nil, res.Tests)
		if err != nil {
			return fmt.Errorf("mutate: baseline run %d: %w", i+1, err)
		}
		if out.Compile != "" {
			return fmt.Errorf("mutate: baseline run %d: the project does not compile:\n%s", i+1, out.Compile)
		}
		for _, t := range out.Passed {
			passes[t]++
		}
	}
	for _, t := range res.Tests {
		switch passes[t] {
		case runs:
			res.Stable = append(res.Stable, t)
		case 0:
		default:
			res.Flaky = append(res.Flaky, t)
		}
	}
	return nil
}

// slotted is a site drawn for an L1 candidate and its slot among the
// operator's draws.
type slotted struct{ site, slot int }

// drawSites draws up to per of an operator's n sites for L1 candidates:
// the first per of a permutation, as before sites were selected, with a
// site not proposed (siteTable.live) replaced by the next live one of the
// permutation in its slot, so that the same seed draws the same sites
// wherever they are live.
func drawSites(op *Operator, n, per int, table siteTable, rng *rand.Rand) []slotted {
	per = min(per, n)
	var out []slotted
	var free []int // slots of the first per whose site is not live
	for i, k := range rng.Perm(n) {
		if len(out) == per {
			break
		}
		switch live := table.live(op, k); {
		case i < per && live:
			out = append(out, slotted{k, i})
		case i < per:
			free = append(free, i)
		case live:
			out = append(out, slotted{k, free[0]})
			free = free[1:]
		}
	}
	slices.SortFunc(out, func(a, b slotted) int { return a.slot - b.slot })
	return out
}

// drawCombo draws the picks of one combination of level lv: one site of
// each operator, the least used operators so far first (ties broken by
// rng), so that operators stay balanced, each site live (table) and its
// edits disjoint from those of the sites drawn before it (a rename edits
// every use of its variable, not just its site). L2 combines two
// distinct operators; L3 and L4
// repeat operators (at other sites) only when fewer distinct ones fit,
// keeping at least two distinct (the digest's levels, families being
// operators). It returns nil when no such combination fits. A nil table
// takes each site's own range as its edits.
func drawCombo(lv ComplexityLevel, avail []*Operator, sites map[*Operator][]Site, usage map[string]int, rng *rand.Rand, table siteTable) []sitePick {
	n := int(lv)
	if len(avail) < 2 {
		return nil
	}
	order := slices.Clone(avail)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	slices.SortStableFunc(order, func(a, b *Operator) int { return usage[a.Name] - usage[b.Name] })
	var picks []sitePick
	var used []Range
	edits := func(op *Operator, k int) []Range {
		if table == nil {
			return []Range{{sites[op][k].Start, sites[op][k].End}}
		}
		return table[op][k]
	}
	overlaps := func(rs []Range) bool {
		for _, r := range rs {
			for _, u := range used {
				if r.Start < u.End && u.Start < r.End || r.Start == u.Start {
					return true
				}
			}
		}
		return false
	}
	// take picks a live site of op whose edits are disjoint from the
	// picks' so far, if any.
	take := func(op *Operator) bool {
		s := sites[op]
		for _, k := range rng.Perm(len(s)) {
			if rs := edits(op, k); table.live(op, k) && !overlaps(rs) {
				used = append(used, rs...)
				picks = append(picks, sitePick{op, s[k]})
				return true
			}
		}
		return false
	}
	for _, op := range order {
		if len(picks) == n {
			break
		}
		take(op)
	}
	for more := lv > L2; more && len(picks) < n; {
		more = false
		for _, op := range order {
			if len(picks) < n && take(op) {
				more = true
			}
		}
	}
	distinct := map[*Operator]bool{}
	for _, pk := range picks {
		distinct[pk.Op] = true
	}
	if len(picks) < n || len(distinct) < 2 {
		return nil
	}
	for _, pk := range picks {
		usage[pk.Op.Name]++
	}
	return picks
}

// changeKey names a constituent's change: its file, operator and edits.
func changeKey(c *Candidate, r Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%s", c.File, r.Operator)
	for _, ch := range r.Changes {
		fmt.Fprintf(&b, "\x00%d:%d:%s", ch.Orig.Start, ch.Orig.End, ch.New)
	}
	return b.String()
}

// soloCandidate returns the L1 candidate of record r of combination c
// alone: its changes applied to the fragment's file, parsed.
func soloCandidate(c *Candidate, r Record, ops []*Operator, policy func(*Operator) Policy) *Candidate {
	s := &Candidate{File: c.File, Frag: c.Frag, Level: L1, Ops: []string{r.Operator}, Seed: c.Seed, Tests: c.Tests, Policy: RequireCompile}
	for _, op := range ops {
		if op.Name == r.Operator && policy(op) == AllowUnresolved {
			s.Policy = AllowUnresolved
		}
	}
	var edits []Edit
	for _, ch := range r.Changes {
		edits = append(edits, Edit{ch.Orig.Start, ch.Orig.End, []byte(ch.New)})
	}
	src, changes, err := apply(c.Frag.Src, edits)
	if err != nil {
		s.Reason, s.Detail = ReasonOverlap, err.Error()
		return s
	}
	rec := r
	rec.Changes = changes
	s.Records, s.Src = []Record{rec}, src
	if t, err := syntax.Parse(syntax.Lang(c.Frag.Lang), src); err != nil || t.HasErrors() {
		s.Reason = ReasonParse
	}
	return s
}

var (
	goUndefinedRE   = regexp.MustCompile(`^(\S+\.go):(\d+):\d+: (undefined: .*|.* undefined \(type .*)$`)
	goLineRE        = regexp.MustCompile(`^(\S+\.go):(\d+):\d+: `)
	javaErrorRE     = regexp.MustCompile(`^([^:\s]+\.java):(\d+): error: (.*)$`)
	javaUndefinedRE = regexp.MustCompile(`^cannot find symbol`)
)

// confirmFailures runs the tests that failed on a candidate again, runs-1
// times (Options.Runs, the runs that also decide the stable tests): a
// test is a failure only if it fails every time. A mutant that some test
// catches only now and then (uuid's getTime with "<" for "<=" fails only
// when two calls share a clock tick) would otherwise be valid in one run
// and not in the next, and its tasks would pass unchanged code now and
// then. A mutant whose failures all come and go is dropped as
// ReasonFlaky. Timed-out runs are not repeated (each would cost the whole
// time limit again). account is told of every run's times.
func confirmFailures(ctx context.Context, p Project, c *Candidate, runs int, account func(*TestRun)) error {
	for r := 1; r < runs && needsConfirming(c); r++ {
		out, err := p.Check(ctx, c.File, c.Src, c.Failing)
		if err != nil {
			return err
		}
		account(out)
		if err := confirm(c, out, r); err != nil {
			return err
		}
	}
	return nil
}

// needsConfirming reports whether c's failing tests are to be run again.
func needsConfirming(c *Candidate) bool {
	return c.Reason == ReasonNone && !c.Unresolved && !c.TimedOut && len(c.Failing) > 0
}

// confirm applies out, run r+1 of c's failing tests, to c: the tests that
// passed this time are no longer failing, and a candidate left with none
// is flaky.
func confirm(c *Candidate, out *TestRun, r int) error {
	if out.Compile != "" {
		return fmt.Errorf("mutate: %s:%d: compiled once, then not: %s", c.File, c.Frag.Line, out.Compile)
	}
	if out.TimedOut {
		return nil // a limit stopped it: keep what the first run found
	}
	failed := map[string]bool{}
	for _, t := range out.Failed {
		failed[t] = true
	}
	var still []string
	for _, t := range c.Failing {
		if failed[t] {
			still = append(still, t)
		}
	}
	if len(still) < len(c.Failing) {
		c.Detail = strings.TrimSpace(c.Detail + fmt.Sprintf("\nrun %d: %d of %d failing tests passed again", r+1, len(c.Failing)-len(still), len(c.Failing)))
	}
	c.Failing = still
	if len(still) == 0 {
		c.Reason = ReasonFlaky
	}
	return nil
}

// checkBatched is checkCandidates for a batchChecker: the first runs of
// every candidate in one batch, then each further run of the failing
// tests of those still to confirm in one batch, with the same verdicts as
// one check at a time. A check the batch did not decide is made alone;
// stats counts them, and says why a batch failed as a whole.
func checkBatched(ctx context.Context, p Project, bc batchChecker, cands []*Candidate, o *Options, progress *tracker.Tracker, isTask func(*Candidate) bool, stats *BatchStats) (build, test time.Duration, err error) {
	todo := undecided(cands)
	failed := map[*Candidate]bool{} // a harness failure, already counted
	run := func(cs []*Candidate, tests func(*Candidate) []string) ([]*TestRun, error) {
		reqs := make([]CheckRequest, len(cs))
		for i, c := range cs {
			reqs[i] = CheckRequest{File: c.File, Src: c.Src, Tests: tests(c)}
		}
		outs, err := bc.CheckBatch(ctx, reqs)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			stats.Errors = append(stats.Errors, err.Error())
		}
		if len(outs) != len(cs) {
			outs = make([]*TestRun, len(cs))
		}
		stats.Checks += len(cs)
		for i, c := range cs {
			if outs[i] == nil {
				stats.Alone++
				out, err := p.Check(ctx, c.File, c.Src, reqs[i].Tests)
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					c.Reason, c.Detail = ReasonInfra, err.Error()
					failed[c] = true
					progress.Done(false)
					continue
				}
				outs[i] = out
			}
			build += outs[i].BuildTime
			test += outs[i].TestTime
		}
		return outs, nil
	}
	outs, err := run(todo, func(c *Candidate) []string { return c.Tests })
	if err != nil {
		return build, test, err
	}
	for i, c := range todo {
		if !failed[c] {
			judgeCandidate(c, outs[i], p.Lang())
		}
	}
	for r := 1; r < o.Runs; r++ {
		var again []*Candidate
		for _, c := range todo {
			if !failed[c] && needsConfirming(c) {
				again = append(again, c)
			}
		}
		if len(again) == 0 {
			break
		}
		outs, err := run(again, func(c *Candidate) []string { return c.Failing })
		if err != nil {
			return build, test, err
		}
		for i, c := range again {
			if failed[c] {
				continue
			}
			if err := confirm(c, outs[i], r); err != nil {
				c.Reason, c.Detail = ReasonInfra, err.Error()
			}
		}
	}
	for _, c := range todo {
		if !failed[c] {
			progress.Done(isTask(c))
		}
	}
	return build, test, nil
}

// judgeCandidate sets the verdict of a checked candidate.
func judgeCandidate(c *Candidate, out *TestRun, lang Lang) {
	if out.Compile != "" {
		if c.Policy == AllowUnresolved && onlyUnresolved(out.Compile, c, lang) {
			c.Unresolved = true
			c.Detail = out.Compile
			return
		}
		c.Reason, c.Detail = ReasonCompile, out.Compile
		return
	}
	c.Failing, c.TimedOut = out.Failed, out.TimedOut
	if len(out.Failed) == 0 {
		c.Reason = ReasonNoFailure
	}
}

// onlyUnresolved reports whether every compile error is an unresolved
// name on a line the candidate changed.
func onlyUnresolved(msg string, c *Candidate, lang Lang) bool {
	lines := map[int]bool{}
	for _, r := range c.Records {
		for _, ch := range r.Changes {
			from := 1 + strings.Count(string(c.Src[:ch.Mut.Start]), "\n")
			to := from + strings.Count(ch.New, "\n")
			for l := from; l <= to; l++ {
				lines[l] = true
			}
		}
	}
	n := 0
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		switch lang {
		case Go:
			if !goLineRE.MatchString(l) {
				continue
			}
			m := goUndefinedRE.FindStringSubmatch(l)
			if m == nil || !lines[atoi(m[2])] {
				return false
			}
			n++
		case Java:
			m := javaErrorRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			if !javaUndefinedRE.MatchString(m[3]) || !lines[atoi(m[2])] {
				return false
			}
			n++
		}
	}
	return n > 0
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// summaryGroup is the group of the compact funnel (FunnelSummary) that a
// group of Result.Funnel (an operator combination, "op" or "op1+op2")
// falls in: "L1 op" for one operator, else its level, "L2", "L3" or "L4"
// (four or more operators).
func summaryGroup(group string) string {
	n := strings.Count(group, "+") + 1
	if n == 1 {
		return "L1 " + group
	}
	return ComplexityLevel(min(n, int(L4))).String()
}

// FunnelSummary returns the funnel with a row per L1 operator (in the
// order of Operators: by tier) and one per level above L1, gathering its
// operator combinations (summaryGroup): about a dozen rows where an L1–L4
// run's Funnel has a hundred. Result.Funnel keeps every combination
// (report.Funnel.WriteCSV writes them all).
func (r *Result) FunnelSummary() *report.Funnel {
	rank := func(g string) (string, int, string) {
		lv, op, _ := strings.Cut(g, " ")
		i := slices.IndexFunc(Operators, func(o *Operator) bool { return o.Name == op })
		if i < 0 {
			i = len(Operators)
		}
		return lv, i, op
	}
	return r.Funnel.Regroup(summaryGroup, func(a, b string) int {
		la, ia, oa := rank(a)
		lb, ib, ob := rank(b)
		if c := strings.Compare(la, lb); c != 0 {
			return c
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(oa, ob)
	})
}

// countCandidate adds a candidate to the funnel.
func countCandidate(f *report.Funnel, c *Candidate) {
	k := c.Key()
	f.Add(k, StageSite, 1)
	if c.Reason == ReasonNoEdit || c.Reason == ReasonOverlap {
		return
	}
	f.Add(k, StageApplied, 1)
	if c.Reason == ReasonParse {
		return
	}
	f.Add(k, StageParsed, 1)
	switch {
	case c.Unresolved:
		f.Add(k, StageUnresolved, 1)
	case c.Reason == ReasonCompile || c.Reason == ReasonInfra || c.Reason == ReasonConstituent:
		return
	default:
		f.Add(k, StageCompiled, 1)
	}
	if c.Valid() {
		f.Add(k, StageDetected, 1)
		if c.Effective() == c.Level {
			f.Add(k, StageEffective, 1)
		}
	}
}
