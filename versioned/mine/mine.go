package mine

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"hash/fnv"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/tracker"
	"github.com/adaptbench/adaptbench/versioned"
	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// Options configures Generate. A nil *Options means the defaults.
type Options struct {
	// From and To bound the releases mined, both inclusive; "" leaves
	// that end open.
	From, To string
	// Proxy is GOPROXY for every download ("file:///dir" serves a
	// directory in the proxy's layout). "" means the go command's.
	Proxy string
	// ModCache is the module cache (GOMODCACHE) the releases are fetched
	// into and the problems build from. "" means the go command's.
	ModCache string
	// GoSum, if set, holds go.sum lines the module's releases must match:
	// a release without a line, or whose hash differs, is an error. The
	// go command also checks each download against the checksum database
	// (GOSUMDB), unless the environment turns that off (GONOSUMDB,
	// GOPRIVATE, GOSUMDB=off: a private or local proxy).
	GoSum string
	// EnvDir is the directory of the cache of the problems' environments
	// (a strict versioned.Provider over a versioned.Cache with the
	// versioned.GoModules builder, Proxy and ModCache); "" means
	// versioned.DefaultCacheDir().
	EnvDir string
	// Runner runs the tests; nil means a ForkServer over a Sandbox that
	// Generate makes and closes. Limits bounds every test run.
	Runner exec.Runner
	Limits exec.Limits
	// Parallelism bounds the test runs in flight. 0 means
	// exec.DefaultParallelism().
	Parallelism int
	// PerAPI bounds the problems about one API (a function, a method, a
	// field) at one release; 0 means 3. Seed orders each API's candidates
	// (the first PerAPI valid ones in that order are kept).
	PerAPI int
	Seed   int64
	// Progress, if set, is called as each stage begins (Phase "list",
	// "fetch", "build" once per release, with its count) and after each
	// candidate's checks (Phase "check"), so that a display can say what
	// a long stage is doing.
	Progress func(report.Progress)
}

// Result is what Generate produced.
type Result struct {
	// Releases are the versions mined, in order.
	Releases []string
	// Changes are the API changes between consecutive releases, release
	// by release, package by package.
	Changes []Change
	// Tasks are the valid problems, in release, package, function and
	// problem order.
	Tasks []adapt.Task
	// Dropped are the candidates that did not become problems, in the
	// same order, each with the stage it stopped at and why.
	Dropped []report.InvalidTask
	// Funnel counts, per change kind, the release pairs with such a
	// change, the changes, and the candidates (a function's calls of one
	// API) through the stages of the package doc's Validity.
	Funnel report.Funnel
	// Time is the wall time of each stage: "list" (the versions), "fetch"
	// (downloading and verifying them), "build" (go list -export of each
	// release's packages and tests), "analyse" (type-checking,
	// deprecations, test functions), "diff" (apidiff and candidates),
	// "check" (the sandboxed runs) and "total".
	Time map[string]time.Duration
}

// The funnel's stages, per change kind (the first of changed, removed,
// deprecated, added a candidate exercises): the release pairs with such a
// change, the changes, then the candidates. "reference uses its API" is
// checked with go/types against the module at N; "within the cap" keeps
// Options.PerAPI per API and release, in the order Options.Seed draws;
// "fails at N-1" needs a compile error or a failed test (anything else is
// no verdict on the version). Each trivial answer then must fail the
// hidden check at N: "zero values" is a body returning zero values,
// "N-1 reference" an adaptation's starting code (a new API has none),
// "printed output" an example's body printing the visible output, then
// returning zero values.
const (
	stageReleases   = "release pairs"
	stageChanges    = "changes"
	stageCandidates = "candidates"
	stageMoved      = "self-contained"
	stageHits       = "reference uses its API"
	stageCap        = "within the cap"
	stagePasses     = "passes at N"
	stageFails      = "fails at N-1"
	stageStart      = "starting code fails"
	stageZero       = "zero values fail"
	stagePanic      = "panic fails"
	stagePrev       = "N-1 reference fails"
	stagePrint      = "printed output fails"
	stageValid      = "valid"
)

// trivialStages are the stages of the trivial answers, in the order they
// are run; trivialNames say what each answer is.
var (
	trivialStages = []string{stageStart, stageZero, stagePanic, stagePrev, stagePrint}
	trivialNames  = map[string]string{
		stageStart: "the starting code", stageZero: "a body returning zero values", stagePanic: "a body that panics",
		stagePrev: "the N-1 reference", stagePrint: "a body printing the visible output",
	}
	trivialKeys = map[string]string{stageStart: "start", stageZero: "zero", stagePanic: "panic", stagePrev: "previous", stagePrint: "print"}
)

// snapshot is one release analysed.
type snapshot struct {
	rel   *release
	build *build
	api   map[string]*types.Package       // package path -> its API (export data)
	notes map[string]map[string]string    // package path -> deprecation notes
	funcs map[string]map[string]*testFunc // package path -> test functions by name
	docs  map[string]map[string]string    // package path -> name -> its doc's first sentence
	paths []string                        // the module's package paths, sorted
	imp   types.Importer                  // the module's packages and their dependencies
}

// importer imports the release's packages from their export data.
func (s *snapshot) importer() types.Importer { return s.imp }

// Generate mines the release history of the Go module mod for
// version-conditioned problems. It lists and fetches the releases
// (verified), builds each release's packages with their tests, diffs the
// API of each package between consecutive releases (apidiff, and new
// "Deprecated:" notes), finds the module's own example and test
// functions that exercise a change, makes each a problem, and keeps
// those whose reference passes at its release and fails at the previous
// one, and whose starting code fails (see the package doc).
//
// Per-candidate outcomes are in the Result; the error is for a run that
// could not happen: a module or version that cannot be listed, fetched
// or verified, a build of a release that fails as a whole, a harness
// failure of a check (an infrastructure error is never a verdict).
func Generate(ctx context.Context, mod string, opts *Options) (*Result, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if mod == "" {
		return nil, errors.New("mine: no module path")
	}
	start := time.Now()
	res := &Result{Time: map[string]time.Duration{}}
	// stage says a stage begins, done of total (0 of 0: no count).
	stage := func(name string, done, total int) {
		if o.Progress != nil {
			o.Progress(report.Progress{Phase: name, Done: done, Total: total, Passed: done, PassedAs: "done", Elapsed: time.Since(start)})
		}
	}
	timed := func(stage string, f func() error) error {
		t := time.Now()
		err := f()
		res.Time[stage] += time.Since(t)
		return err
	}
	g := goTool{proxy: o.Proxy, modCache: o.ModCache}
	var vs []string
	stage("list", 0, 0)
	if err := timed("list", func() (err error) { vs, err = g.versions(ctx, mod, o.From, o.To); return err }); err != nil {
		return nil, err
	}
	if len(vs) < 2 {
		return nil, fmt.Errorf("mine: %s has %d release(s) in range [%s, %s]: need two to compare", mod, len(vs), o.From, o.To)
	}
	res.Releases = vs
	var rels []*release
	stage("fetch", 0, 0)
	if err := timed("fetch", func() (err error) { rels, err = g.download(ctx, mod, vs, o.GoSum); return err }); err != nil {
		return nil, err
	}
	snaps := make([]*snapshot, len(rels))
	for i, r := range rels {
		var b *build
		stage("build", i, len(rels))
		if err := timed("build", func() (err error) { b, err = g.list(ctx, mod, r, o.GoSum); return err }); err != nil {
			return nil, err
		}
		timed("analyse", func() error { snaps[i] = analyse(mod, r, b); return nil })
	}
	var cands []*candidate
	res.Funnel.Declare(append([]string{stageReleases, stageChanges, stageCandidates, stageMoved, stageHits, stageCap, stagePasses, stageFails}, append(trivialStages, stageValid)...)...)
	timed("diff", func() error {
		for i := 1; i < len(snaps); i++ {
			changes := diff(snaps[i-1], snaps[i])
			res.Changes = append(res.Changes, changes...)
			count(&res.Funnel, changes)
			cands = append(cands, candidates(mod, snaps[i-1], snaps[i], changes)...)
		}
		uniqueIDs(cands)
		return nil
	})
	if err := timed("check", func() error { return check(ctx, &o, cands) }); err != nil {
		return nil, err
	}
	for _, c := range cands {
		for _, s := range c.stages {
			res.Funnel.Add(c.group, s, 1)
		}
		if c.reason != "" {
			res.Dropped = append(res.Dropped, report.InvalidTask{TaskID: c.id, Reason: c.reason})
			continue
		}
		res.Tasks = append(res.Tasks, *c.task)
	}
	res.Time["total"] = time.Since(start)
	return res, nil
}

// count adds a release pair's changes to the funnel.
func count(f *report.Funnel, changes []Change) {
	seen := map[string]bool{}
	for _, k := range kinds {
		for _, c := range changes {
			if c.Kind == k {
				f.Add(k, stageChanges, 1)
				if !seen[k] {
					seen[k] = true
					f.Add(k, stageReleases, 1)
				}
			}
		}
	}
}

// analyse reads a release's API, deprecation notes and test functions.
func analyse(mod string, r *release, b *build) *snapshot {
	s := &snapshot{rel: r, build: b, api: map[string]*types.Package{}, notes: map[string]map[string]string{}, docs: map[string]map[string]string{}, funcs: map[string]map[string]*testFunc{}}
	fset := token.NewFileSet()
	imp := exportImporter(fset, b.exports)
	s.imp = imp
	for _, p := range b.pkgs {
		if p.Name == "main" || isInternal(mod, p.ImportPath) {
			continue
		}
		s.paths = append(s.paths, p.ImportPath)
		if api, err := imp.Import(p.ImportPath); err == nil {
			s.api[p.ImportPath] = api
		}
		s.notes[p.ImportPath], s.docs[p.ImportPath] = deprecations(p.Dir, p.GoFiles)
		fs := map[string]*testFunc{}
		for _, tf := range testFuncs(mod, p, imp, fset) {
			if _, dup := fs[tf.Name]; !dup {
				fs[tf.Name] = tf
			}
		}
		s.funcs[p.ImportPath] = fs
	}
	slices.Sort(s.paths)
	return s
}

func isInternal(mod, p string) bool {
	rel := strings.TrimPrefix(p, mod)
	return strings.Contains(rel+"/", "/internal/")
}

// diff lists the changes from one release to the next, package by
// package.
func diff(prev, cur *snapshot) []Change {
	paths := slices.Clone(cur.paths)
	for _, p := range prev.paths {
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var out []Change
	for _, p := range paths {
		_, hadPkg := prev.api[p]
		_, hasPkg := cur.api[p]
		var old, new *types.Package
		if hadPkg {
			old = prev.api[p]
		}
		if hasPkg {
			new = cur.api[p]
		}
		changes := append(diffPackage(p, old, new), newDeprecations(p, prev.notes[p], cur.notes[p], old, new)...)
		slices.SortStableFunc(changes, func(a, b Change) int {
			if c := slices.Index(kinds, a.Kind) - slices.Index(kinds, b.Kind); c != 0 {
				return c
			}
			return strings.Compare(a.Name, b.Name)
		})
		for i := range changes {
			changes[i].Package = p
		}
		out = append(out, changes...)
	}
	return out
}

// candidate is one call site group of a function that exercises a
// change, on its way to a problem.
type candidate struct {
	id      string
	module  string
	problem string // problemNewAPI or problemAdapt
	group   string // its funnel group: the first kind of its changes
	pkg     string
	changes []Change
	cur     *testFunc  // at N
	prev    *testFunc  // at N-1, for an adaptation
	calls   *siteGroup // the calls solve stands for, in cur
	old     *siteGroup // the calls at N-1 they replace, in prev
	at      [2]*snapshot
	task    *adapt.Task // the problem at N
	older   *adapt.Task // the same workspace requiring N-1
	// trivial are the answers that must fail the hidden check at N, by
	// stage (see trivialAnswers).
	trivial map[string]string
	stages  []string
	reason  string
}

// The problems.
const (
	problemNewAPI = "uses-new-api"
	problemAdapt  = "adapt-to-new-version"
)

// candidates finds the calls of the functions that exercise the changes
// from prev to cur.
func candidates(mod string, prev, cur *snapshot, changes []Change) []*candidate {
	byKey := map[string][]Change{}
	for _, c := range changes {
		byKey[c.key()] = append(byKey[c.key()], c)
	}
	var out []*candidate
	for _, p := range cur.paths {
		fs := cur.funcs[p]
		for _, name := range sortedKeys(fs) {
			tf := fs[name]
			for _, g := range tf.Groups {
				var added []Change
				for _, c := range byKey[g.Key] {
					if c.Kind == kindAdded {
						added = append(added, c)
					}
				}
				if len(added) > 0 {
					c := &candidate{module: mod, problem: problemNewAPI, pkg: p, changes: added, cur: tf, calls: g, at: [2]*snapshot{prev, cur}}
					out = append(out, c.named())
				}
			}
		}
		old := prev.funcs[p]
		for _, name := range sortedKeys(old) {
			tf, now := old[name], fs[name]
			if now == nil || now.Example != tf.Example || now.Body == tf.Body {
				continue
			}
			hit := adaptHits(tf, now, byKey)
			if len(hit) == 0 {
				continue
			}
			// The call at N-1 that the updated one replaces: the first of a
			// changed, removed or deprecated name.
			var og *siteGroup
			for _, g := range tf.Groups {
				if slices.ContainsFunc(hit, func(c Change) bool { return c.key() == g.Key }) {
					og = g
					break
				}
			}
			for _, g := range now.Groups {
				if cs := updates(g, hit, byKey); cs != nil {
					c := &candidate{module: mod, problem: problemAdapt, pkg: p, changes: cs, cur: now, prev: tf, calls: g, old: og, at: [2]*snapshot{prev, cur}}
					out = append(out, c.named())
				}
			}
		}
	}
	return out
}

// uniqueIDs numbers the candidates that would share an ID (a function
// calling one API with two signatures): the second gets "~2" after its
// API, and so on.
func uniqueIDs(cands []*candidate) {
	seen := map[string]int{}
	for _, c := range cands {
		seen[c.id]++
		if n := seen[c.id]; n > 1 {
			i := strings.LastIndex(c.id, "/")
			c.id = fmt.Sprintf("%s~%d%s", c.id[:i], n, c.id[i:])
		}
	}
}

// adaptHits are the changes a function at N-1 uses that its update at N
// no longer uses as it did: a removed or deprecated name it dropped, a
// changed one.
func adaptHits(tf, now *testFunc, byKey map[string][]Change) []Change {
	var hit []Change
	for _, u := range tf.Uses {
		for _, c := range byKey[u] {
			if c.Kind == kindAdded {
				continue
			}
			// A removed or deprecated name is gone from the updated
			// function; a changed one may be used with its new form.
			if c.Kind != kindChanged && slices.Contains(now.Uses, u) {
				continue
			}
			hit = append(hit, c)
		}
	}
	return hit
}

// updates returns the changes an updated call g stands for, nil when it
// is not about hit: the changed name itself, a deprecated or removed
// name's replacement, or (a removal) a name added at N.
func updates(g *siteGroup, hit []Change, byKey map[string][]Change) []Change {
	var out []Change
	for _, c := range hit {
		switch {
		case c.Kind == kindChanged && c.key() == g.Key,
			c.Replacement != "" && c.Package+"."+c.Replacement == g.Key:
			out = append(out, c)
		case c.Kind == kindRemoved && slices.ContainsFunc(byKey[g.Key], func(a Change) bool { return a.Kind == kindAdded }):
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil
	}
	for _, a := range byKey[g.Key] {
		if a.Kind == kindAdded {
			out = append(out, a)
		}
	}
	return out
}

// named completes a candidate made of its module, problem, package,
// changes, test functions, call groups and snapshots: its changes in
// kind order without repeats, its funnel group and its ID.
func (c *candidate) named() *candidate {
	mod, problem, pkg, cur, calls, cs := c.module, c.problem, c.pkg, c.cur, c.calls, c.at[1]
	changes := c.changes
	slices.SortStableFunc(changes, func(a, b Change) int {
		return slices.Index(kinds, a.Kind) - slices.Index(kinds, b.Kind)
	})
	changes = slices.CompactFunc(changes, func(a, b Change) bool { return a.key() == b.key() && a.Kind == b.Kind })
	short := "new-api"
	if problem == problemAdapt {
		short = "adapt"
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, mod), "/")
	if rel == "" {
		rel = path.Base(mod)
		if strings.HasPrefix(rel, "v") && len(mod) > len(rel)+1 {
			rel = path.Base(strings.TrimSuffix(mod, "/"+rel))
		}
	}
	api := strings.TrimPrefix(calls.Key, calls.Pkg+".")
	c.id = fmt.Sprintf("%s@%s/%s.%s.%s/%s", mod, cs.rel.Version, rel, cur.Name, api, short)
	c.changes, c.group = changes, changes[0].Kind
	c.stages = []string{stageCandidates}
	return c
}

// check makes each self-contained candidate a problem whose reference
// uses its API, then runs its checks in the sandbox, up to PerAPI valid
// problems per API and release in a seeded order: the reference at N and
// at N-1, then the trivial answers at N.
func check(ctx context.Context, o *Options, cands []*candidate) error {
	runner, closeRunner, err := sandbox.Default(o.Runner)
	if err != nil {
		return err
	}
	defer closeRunner()
	cache := &versioned.Cache{Dir: o.EnvDir, Builder: &versioned.GoModules{ModCache: o.ModCache, Proxy: o.Proxy}}
	envs := &versioned.Provider{Provisioner: cache, Strict: true}
	checker := &adapt.Checker{Runner: runner, Limits: o.Limits, Environments: envs}
	par := o.Parallelism
	if par <= 0 {
		par = exec.DefaultParallelism()
	}
	byAPI := map[string][]*candidate{}
	var apis []string
	n := 0
	for _, c := range cands {
		if err := prepare(c); err != nil {
			return err
		}
		if c.reason != "" {
			continue
		}
		key := c.at[1].rel.Version + " " + c.calls.Key
		if byAPI[key] == nil {
			apis = append(apis, key)
		}
		byAPI[key] = append(byAPI[key], c)
		n++
	}
	perAPI := o.PerAPI
	if perAPI <= 0 {
		perAPI = 3
	}
	progress := tracker.New(o.Progress, "check", n)
	eg, ectx := errgroup.WithContext(ctx)
	eg.SetLimit(par)
	for _, key := range apis {
		group := byAPI[key]
		h := fnv.New64a()
		h.Write([]byte(key))
		rng := rand.New(rand.NewPCG(uint64(o.Seed), h.Sum64()))
		order := rng.Perm(len(group))
		eg.Go(func() error {
			valid := 0
			for _, i := range order {
				c := group[i]
				if valid >= perAPI {
					c.reason = fmt.Sprintf("capped: %d problems about %s at %s already", perAPI, c.calls.Key, c.at[1].rel.Version)
					progress.Done(false)
					continue
				}
				c.stages = append(c.stages, stageCap)
				err := checkOne(ectx, checker, c)
				progress.Done(err == nil && c.reason == "")
				if err != nil {
					return err
				}
				if c.reason == "" {
					valid++
				}
			}
			return nil
		})
	}
	return eg.Wait()
}

// prepare makes a candidate's problem and checks, without running
// anything, that it is self-contained and that its reference uses its
// API (go/types, against the module at N).
func prepare(c *candidate) error {
	if c.cur.Src == "" || c.prev != nil && c.prev.Src == "" {
		why := c.cur.Why
		if c.prev != nil && c.prev.Src == "" {
			why = c.prev.Why + " (at " + c.at[0].rel.Version + ")"
		}
		c.reason = "not self-contained: " + why
		return nil
	}
	if c.problem == problemAdapt && c.old == nil {
		c.reason = "not self-contained: no call of the changed API at " + c.at[0].rel.Version
		return nil
	}
	if why, err := makeTasks(c); err != nil {
		return err
	} else if why != "" {
		c.reason = "not self-contained: " + why
		return nil
	}
	c.stages = append(c.stages, stageMoved)
	files := map[string]string{solutionFile: c.task.Reference, checkFile: c.task.Files[0].Content}
	uses, err := libapi.Uses(c.at[1].importer(), files, solutionFile)
	if err != nil {
		return fmt.Errorf("mine: %s: the reference: %w", c.id, err)
	}
	if !uses[c.calls.Key] {
		c.reason = "the reference does not use " + c.calls.Key
		return nil
	}
	c.stages = append(c.stages, stageHits)
	return nil
}

// checkOne runs a candidate's checks, stopping at the first that fails.
func checkOne(ctx context.Context, checker *adapt.Checker, c *candidate) error {
	run := func(t *adapt.Task, code string) (report.SampleResult, error) {
		res, err := checker.Check(ctx, t, adapt.Answer{Code: code})
		if err != nil {
			return res, fmt.Errorf("mine: %s: %w", t.ID, err)
		}
		if res.Outcome == report.OutcomeInfraError {
			return res, fmt.Errorf("mine: %s: infrastructure error: %s", t.ID, res.Detail)
		}
		return res, nil
	}
	res, err := run(c.task, c.task.Reference)
	if err != nil {
		return err
	}
	if res.Outcome == report.OutcomeCompileError && !compilerOnSolution(c.module, res.Detail) {
		return fmt.Errorf("mine: %s: the build at %s failed outside the solution: %s", c.id, c.at[1].rel.Version, firstLine(res.Detail))
	}
	if res.Outcome != report.OutcomePassed {
		c.reason = fmt.Sprintf("reference %s at %s: %s", res.Outcome, c.at[1].rel.Version, why(res))
		return nil
	}
	c.stages = append(c.stages, stagePasses)
	res, err = run(c.older, c.task.Reference)
	if err != nil {
		return err
	}
	switch res.Outcome {
	case report.OutcomeCompileError, report.OutcomeFailed:
	default:
		c.reason = fmt.Sprintf("not version-conditioned: the reference %s at %s", res.Outcome, c.at[0].rel.Version)
		if res.Outcome != report.OutcomePassed {
			c.reason += ": " + why(res)
		}
		return nil
	}
	if res.Outcome == report.OutcomeCompileError && !compilerOnSolution(c.module, res.Detail) {
		// Not the compiler on the function: the go command on the
		// workspace (a missing hash or module), which is no verdict.
		return fmt.Errorf("mine: %s: the build at %s failed outside the solution: %s", c.id, c.at[0].rel.Version, firstLine(res.Detail))
	}
	c.stages = append(c.stages, stageFails)
	if err := setPrevious(c, res); err != nil {
		return err
	}
	// The trivial answers, each of which must fail the hidden check.
	hidden := c.task.Tests[1].Name
	for _, stage := range trivialStages {
		code, ok := c.trivial[stage]
		if ok {
			res, err := run(c.task, code)
			if err != nil {
				return err
			}
			if testPassed(res, hidden) {
				c.reason = fmt.Sprintf("a trivial answer passes the hidden check at %s: %s", c.at[1].rel.Version, trivialNames[stage])
				return nil
			}
		}
		c.stages = append(c.stages, stage)
	}
	c.stages = append(c.stages, stageValid)
	return nil
}

// testPassed reports whether the named test passed in a result.
func testPassed(res report.SampleResult, name string) bool {
	for _, t := range res.Tests {
		if t.Name == name {
			return t.Status == exec.TestPassed
		}
	}
	return false
}

// compilerOnSolution reports whether a build's messages are the
// compiler's on the solution or the check file (the module's test may use
// more of the API than solve), not the go command's on the workspace (a
// module or hash it cannot find with the proxy off).
func compilerOnSolution(mod, detail string) bool {
	// A package of the module that this release does not have is the
	// version's doing.
	if strings.Contains(detail, "for package "+mod+"/") || strings.Contains(detail, "provides package "+mod+"/") {
		return true
	}
	for _, m := range []string{"cannot find module providing package", "no required module provides package", "missing go.sum entry", "verifying ", "module lookup disabled"} {
		if strings.Contains(detail, m) {
			return false
		}
	}
	return (strings.Contains(detail, solutionFile+":") || strings.Contains(detail, checkFile+":")) && !strings.Contains(detail, "go: ")
}

// why is the first line of what made a check fail: the compiler's or the
// sandbox's message, else the first test that did not pass and its
// message.
func why(res report.SampleResult) string {
	if res.Detail != "" {
		// The first line that is not the compiler's "# package" header.
		for _, l := range strings.Split(res.Detail, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				return l
			}
		}
		return firstLine(res.Detail)
	}
	for _, t := range res.Tests {
		if t.Status != exec.TestPassed {
			return t.Name + " " + t.Status.String() + ": " + firstLine(t.Message)
		}
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
