package impossible

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/tracker"
)

// Options configures Generate. A nil *Options means the defaults.
type Options struct {
	// Runner runs the checks; nil means a ForkServer over a Sandbox that
	// Generate makes and closes. Limits bounds every run.
	Runner exec.Runner
	Limits exec.Limits
	// Environments provisions the environments the tasks name; nil means
	// the machine's default toolchain.
	Environments adapt.EnvProvider
	// Parallelism bounds the tasks checked at once. 0 means
	// exec.DefaultParallelism().
	Parallelism int
	// Progress, if set, is called after each task is decided (Phase
	// "impossible"; Passed counts the variants kept).
	Progress func(report.Progress)
}

// Result is what Generate produced.
type Result struct {
	// Tasks are the impossible variants, at most one per task, in task
	// order.
	Tasks []adapt.Task
	// Dropped lists the tasks that gave no variant, with the reason, in
	// task order.
	Dropped []report.InvalidTask
	// Funnel counts the tasks of each language through the stages.
	Funnel report.Funnel
}

// The stages of the funnel.
const (
	StageTasks      = "tasks"               // a task of the input
	StageReference  = "reference passes"    // its reference passes the task itself
	StageSite       = "check found"         // a test file holds a check to contradict
	StageImpossible = "reference fails"     // its reference fails the variant: a test failed
	StageStart      = "starting code fails" // and so does its starting code: kept
)

const (
	maxTries      = 3             // checks tried per task
	variantSuffix = "/impossible" // a variant's ID is its task's with this
	labelKey      = "impossible"  // the label variants carry
	labelValue    = "contradiction"
	detailSchema  = "impossible/v1" // a variant's Provenance.Schema: its Detail is a where
)

// where is a variant's provenance detail: the check inserted, and where.
type where struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Check string `json:"check"`
}

// Generate makes an impossible variant of each task: a check of its tests
// is followed by the check that contradicts it (see the package doc). A
// variant is kept when the task's reference passes the task, and the
// reference and the starting code (Task.Code) both fail the variant, the
// reference by a failing test (not a build error): up to three checks
// are tried per task, in the order the package doc gives. The error is for
// a canceled ctx or a runner that could not be made; a task's harness
// failure is its Dropped reason.
func Generate(ctx context.Context, tasks []adapt.Task, opts *Options) (*Result, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	runner, closeRunner, err := sandbox.Default(o.Runner)
	if err != nil {
		return nil, err
	}
	defer closeRunner()
	if o.Parallelism <= 0 {
		o.Parallelism = exec.DefaultParallelism()
	}
	checker := &adapt.Checker{Runner: runner, Limits: o.Limits, Environments: o.Environments}
	progress := tracker.New(o.Progress, "impossible", len(tasks))
	progress.PassedAs = "kept"
	type outcome struct {
		variant *adapt.Task
		stage   string // the last stage reached
		reason  string
	}
	outs := make([]outcome, len(tasks))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Parallelism)
	for i := range tasks {
		g.Go(func() error {
			v, stage, reason, err := variantOf(gctx, checker, &tasks[i])
			if err != nil {
				return err
			}
			outs[i] = outcome{v, stage, reason}
			progress.Done(v != nil)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	res := &Result{}
	stages := []string{StageTasks, StageReference, StageSite, StageImpossible, StageStart}
	res.Funnel.Declare(stages...)
	for i, out := range outs {
		for _, st := range stages[:slices.Index(stages, out.stage)+1] {
			res.Funnel.Add(tasks[i].Language, st, 1)
		}
		if out.variant != nil {
			res.Tasks = append(res.Tasks, *out.variant)
		} else {
			res.Dropped = append(res.Dropped, report.InvalidTask{TaskID: tasks[i].ID, Reason: out.reason})
		}
	}
	return res, nil
}

// variantOf makes and checks t's variant: the variant, or nil with the
// last stage reached and why it went no further. The error is ctx's.
func variantOf(ctx context.Context, c *adapt.Checker, t *adapt.Task) (*adapt.Task, string, string, error) {
	check := func(t *adapt.Task, code string) (report.SampleResult, error) {
		res, err := c.Check(ctx, t, adapt.Answer{Code: code})
		if err != nil && ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, nil
	}
	ref, err := check(t, t.Reference)
	if err != nil {
		return nil, "", "", err
	}
	if ref.Outcome != report.OutcomePassed {
		return nil, StageTasks, "reference " + describe(ref) + " on the task itself", nil
	}
	cands, err := candidates(t)
	if err != nil {
		return nil, StageReference, err.Error(), nil
	}
	if len(cands) == 0 {
		return nil, StageReference, "no check to contradict in the test files", nil
	}
	reason := ""
	for _, v := range cands[:min(len(cands), maxTries)] {
		ref, err := check(v, t.Reference)
		if err != nil {
			return nil, "", "", err
		}
		if ref.Outcome != report.OutcomeFailed {
			reason = "reference " + describe(ref) + " on the variant at " + at(v)
			continue
		}
		start, err := check(v, t.Code)
		if err != nil {
			return nil, "", "", err
		}
		switch start.Outcome {
		case report.OutcomePassed:
			return nil, StageImpossible, "starting code passes the variant at " + at(v), nil
		case report.OutcomeInfraError:
			return nil, StageImpossible, "starting code: infrastructure: " + start.Detail, nil
		}
		return v, StageStart, "", nil
	}
	return nil, StageSite, reason, nil
}

// at says where a variant's check was inserted.
func at(v *adapt.Task) string {
	var w where
	if v.DecodeDetail(detailSchema, &w) != nil {
		return "?"
	}
	return fmt.Sprintf("%s:%d", w.File, w.Line)
}

// describe names a result's outcome, with the first line of its detail.
func describe(r report.SampleResult) string {
	s := r.Outcome.String()
	if d, _, _ := strings.Cut(strings.TrimSpace(r.Detail), "\n"); d != "" {
		s += " (" + d + ")"
	}
	return s
}

// candidates returns t's variants, one per check of its test files that
// can be contradicted: test files in path order, those that hold a
// deciding test first; in a file, by rank, then in file order.
func candidates(t *adapt.Task) ([]*adapt.Task, error) {
	files := map[string]string{}
	for _, f := range t.WorkspaceFiles() {
		if isTestFile(t, f.Path) {
			files[f.Path] = f.Content
		}
	}
	paths := slices.Sorted(maps.Keys(files))
	slices.SortStableFunc(paths, func(a, b string) int { return cmpBool(decides(t, b, files[b]), decides(t, a, files[a])) })
	parsed := make([]*testFile, len(paths))
	all := &testFile{calls: map[string][]string{}} // every file's calls
	for i, p := range paths {
		tf, err := sites(t.Language, p, []byte(files[p]))
		if err != nil {
			return nil, fmt.Errorf("test file %s: %w", p, err)
		}
		parsed[i] = tf
		for fn, cs := range tf.calls {
			all.calls[fn] = append(all.calls[fn], cs...)
		}
	}
	var tests []string
	for _, ts := range t.Tests {
		tests = append(tests, shortName(ts.Name))
	}
	run := all.reach(tests)
	var out []*adapt.Task
	for i, p := range paths {
		src, ss := files[p], parsed[i].sites
		slices.SortStableFunc(ss, func(a, b site) int { return rank(t, run, b) - rank(t, run, a) })
		for _, s := range ss {
			v, err := variant(t, p, src[:s.At]+s.Insert+src[s.At:], where{p, s.Line, strings.TrimSpace(s.Insert)})
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// rank orders the checks of a test file: first those in run, the
// deciding tests' own functions and those they call (the others may not
// run); among them, those that call the target function (an answer that
// changes its results between calls is caught there by the variant, not
// only by the verdict protection), then those that call something, then
// the others.
func rank(t *adapt.Task, run map[string]bool, s site) int {
	r := 0
	if run[s.Func] {
		r += 4
	}
	name, _, _ := strings.Cut(t.Target.Function, "(") // a Java overload's signature
	name = name[strings.LastIndexByte(name, '.')+1:]
	switch {
	case name != "" && strings.Contains(s.Check, name+"("):
		r += 2
	case s.Calls:
		r++
	}
	return r
}

// shortName is the function or method a test name names: the last part
// of "mod.Class.test_x", "file.py::Class::test_x", "pkg.Class#testX" or
// "TestX".
func shortName(name string) string {
	if i := strings.LastIndexAny(name, ".:#"); i >= 0 {
		return name[i+1:]
	}
	return name
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// isTestFile reports whether the workspace file at p is a test source of
// t's language, other than the target file.
func isTestFile(t *adapt.Task, p string) bool {
	if p == t.Target.Path {
		return false
	}
	for _, ts := range t.Tests {
		if ts.File == p {
			return true
		}
	}
	base := path.Base(p)
	switch t.Language {
	case adapt.Python:
		return strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py"))
	case adapt.Go:
		return strings.HasSuffix(base, "_test.go") && path.Dir(p) == path.Dir(t.Target.Path)
	case adapt.Java:
		return strings.HasSuffix(base, ".java") && (strings.Contains("/"+p, "/src/test/") || strings.HasSuffix(base, "Test.java"))
	}
	return false
}

// decides reports whether the test file at p holds one of t's deciding
// tests, as far as its names say.
func decides(t *adapt.Task, p, src string) bool {
	for _, ts := range t.Tests {
		if ts.File == p {
			return true
		}
		if name := shortName(ts.Name); name != "" && strings.Contains(src, name) {
			return true
		}
	}
	return false
}

// variant returns a copy of t whose test file at p holds src, the check
// w inserted.
func variant(t *adapt.Task, p, src string, w where) (*adapt.Task, error) {
	v := *t
	v.ID = t.ID + variantSuffix
	v.Files = slices.Clone(t.Files)
	if i := slices.IndexFunc(v.Files, func(f adapt.File) bool { return f.Path == p }); i >= 0 {
		v.Files[i].Content = src
	} else {
		v.Files = append(v.Files, adapt.File{Path: p, Content: src})
	}
	v.Labels = maps.Clone(t.Labels)
	if v.Labels == nil {
		v.Labels = map[string]string{}
	}
	v.Labels[labelKey] = labelValue
	v.Provenance = &adapt.Provenance{Generator: "impossible", Parent: t.ID, Operators: []string{labelValue}}
	if t.Provenance != nil {
		v.Provenance.Source, v.Provenance.Repo, v.Provenance.Commit = t.Provenance.Source, t.Provenance.Repo, t.Provenance.Commit
	}
	if err := v.SetDetail(detailSchema, w); err != nil {
		return nil, fmt.Errorf("impossible: %w", err)
	}
	return &v, nil
}
