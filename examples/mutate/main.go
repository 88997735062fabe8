// Command mutate generates instruction-free adaptation tasks from a Go
// module or a Maven project (built offline from Debian's repository) by
// mutation injection, prints the validity funnel and the pilot
// gates, and writes into -out (a new directory mutate-N by default) the
// tasks as JSON Lines (tasks.jsonl), the funnel of every operator
// combination (funnel.csv) and every mutant with its verdict, effective
// level and the tests that caught it (mutants.csv), saying "wrote PATH"
// for each. SIGINT or SIGTERM stops it and removes its temporary files.
// With -evaluate it runs them through adapt.Evaluate with a model, writes
// the report page (report.html, or -html FILE) and reports, per operator,
// the test verdicts beside the inspection of which mutations the model
// reversed. -tasks FILE evaluates the tasks of an earlier run instead of
// generating them again; the reference checks are kept in the user's
// cache (adapt.Options.ReferenceCache), so that each model after the
// first pays for none.
//
//	go run ./examples/mutate -dir $(go env GOMODCACHE)/github.com/google/uuid@v1.6.0 -fragments 10 -out uuid
//	go run ./examples/mutate -dir ... -evaluate -model reference
//	go run ./examples/mutate -tasks uuid/tasks.jsonl -model identity -html uuid/identity.html
//	go run ./examples/mutate -dir $(go env GOMODCACHE)/github.com/google/go-cmp@v0.7.0 -packages cmp
//	go run ./examples/mutate -dir mutate/maven/testdata/maven -evaluate
//
// A run whose pilot gates fail (mutate.Gates.Err) writes no tasks and
// exits non-zero, its last line naming the gate; -gates=warn writes them
// and says so last. -require-effective keeps only the L2-L4 mutants of
// their nominal level (mutate.Options.RequireEffective).
//
// -model is "reference", "identity" or "openai" (the OpenAI-compatible
// endpoint named by OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL).
// A model's snippet answers go through mutate.Answer (adapt.Options.Answer),
// which splices them into the enclosing function that adapt.Evaluate tests.
package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
	"github.com/adaptbench/adaptbench/mutate/maven"
	"github.com/adaptbench/adaptbench/source"
)

func main() {
	// SIGINT or SIGTERM cancels the run, which then closes the sandbox
	// and the project (their temporary directories and the cached test
	// binaries); a second one ends the command at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		// -h: the usage was asked for, and printed.
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		log.Fatal(err)
	}
}

// errUsage is a command line that names nothing to work on.
var errUsage = errors.New("mutate: want -dir, -repo or -tasks")

// run is the command; it returns the first error, after closing the
// sandbox and the project (log.Fatal would skip that and leave their
// temporary directories behind).
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("mutate", flag.ContinueOnError)
	dir := fl.String("dir", "", "root of a Go module (its root package, or -packages), or of a Maven project (pom.xml); with -repo, the project's directory in the repository")
	repo := fl.String("repo", "", "a git repository (a clone, a bare mirror or a URL) to read the project from at -rev, recorded in every task")
	rev := fl.String("rev", "", "with -repo: the revision (branch, tag or hash)")
	outFlag := cmdkit.OutFlag(fl, "mutate")
	funnelCSV := fl.Bool("funnel", true, "write funnel.csv: the full funnel, a row per operator combination")
	mutantsCSV := fl.Bool("mutants", true, "write mutants.csv: every mutant considered, a row each with its verdict, effective level and the tests that caught it")
	tasksIn := fl.String("tasks", "", "evaluate the tasks of this file (an earlier run's tasks.jsonl) instead of generating them; implies -evaluate")
	htmlOut := fl.String("html", "", "with -evaluate: write the report page to this file (default: report.html in -out)")
	seed := fl.Uint64("seed", 1, "seed of every random choice")
	frags := fl.Int("fragments", 10, "fragments to sample (0: all)")
	levels := fl.Int("levels", 2, "generate levels L1 to L<levels> (1-4)")
	pkgs := fl.String("packages", "", "Go: the packages to study, comma-separated directories relative to the module root (\"cmp\"), or \"...\" for every package with tests; empty: the root package")
	evaluate := fl.Bool("evaluate", false, "evaluate the tasks with -model")
	model := fl.String("model", "reference", "reference, identity or openai")
	gates := fl.String("gates", "fail", "when a pilot gate fails: fail (write no tasks, exit non-zero) or warn (go on, and say so last)")
	requireEff := fl.Bool("require-effective", false, "keep only L2-L4 mutants of their nominal level: each change caught by a test alone")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *gates != "fail" && *gates != "warn" {
		return fmt.Errorf("-gates %q: want fail or warn", *gates)
	}
	if *dir == "" && *repo == "" && *tasksIn == "" {
		fl.Usage()
		return errUsage
	}
	if *tasksIn != "" {
		return evaluateFile(ctx, stdout, *tasksIn, *outFlag, evalConfig{model: *model, html: *htmlOut})
	}
	out, err := cmdkit.OpenOutDir(*outFlag, "mutate", stdout)
	if err != nil {
		return err
	}
	var repoName, commit string
	if *repo != "" {
		// The project at the revision, written out for the build tools.
		snap, err := source.Open(ctx, *repo, *rev)
		if err != nil {
			return err
		}
		tmp, err := os.MkdirTemp("", "adaptbench-checkout-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		sub := cmp.Or(*dir, ".")
		if err := snap.Materialize(ctx, sub, filepath.Join(tmp, "project")); err != nil {
			return err
		}
		*dir, repoName, commit = filepath.Join(tmp, "project"), snap.Repo(), snap.Commit()
		fmt.Fprintf(stdout, "%s at %s (%s)\n", repoName, commit, sub)
	}
	sb, err := sandbox.New(nil)
	if err != nil {
		return err
	}
	defer sb.Close()
	proj, err := openProject(ctx, *dir, *pkgs, sb)
	if err != nil {
		return err
	}
	defer proj.Close()

	cfg := &mutate.Options{Seed: *seed, Fragments: *frags, Repo: repoName, Commit: commit, RequireEffective: *requireEff}
	for l := mutate.L1; l <= mutate.ComplexityLevel(min(max(*levels, 1), 4)); l++ {
		cfg.Levels = append(cfg.Levels, l)
	}
	csvs := [2]string{}
	if *funnelCSV {
		csvs[0] = out.Join("funnel.csv")
	}
	if *mutantsCSV {
		csvs[1] = out.Join("mutants.csv")
	}
	res, err := generate(ctx, proj, cfg, stdout, csvs)
	if err != nil {
		return err
	}
	for _, p := range csvs {
		if p != "" {
			out.Wrote(p)
		}
	}
	if err := res.Gates().Err(); err != nil {
		if *gates == "fail" {
			return fmt.Errorf("%w; no tasks written (-gates=warn writes them)", err)
		}
		defer fmt.Fprintf(stdout, "%v (-gates=warn: tasks written)\n", err) // the last line
	}
	tasks := res.Tasks
	if err := adapt.SaveFile(out.Join("tasks.jsonl"), tasks); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d tasks%s\n", out.Join("tasks.jsonl"), len(tasks), fileSize(out.Join("tasks.jsonl"), tasks))
	if !*evaluate {
		return nil
	}
	return evaluateTasks(ctx, evalConfig{model: *model, html: *htmlOut, runner: sb, stdout: stdout, out: out}, tasks, res)
}

// evaluateFile evaluates the tasks of an earlier run's file (-tasks).
// The output directory is made only for a page -html does not place.
func evaluateFile(ctx context.Context, stdout io.Writer, file, outPath string, c evalConfig) error {
	tasks, err := adapt.LoadFile(file)
	if err != nil {
		return err
	}
	var out *cmdkit.OutDir
	if c.html == "" {
		if out, err = cmdkit.OpenOutDir(outPath, "mutate", stdout); err != nil {
			return err
		}
	}
	sb, err := sandbox.New(nil)
	if err != nil {
		return err
	}
	defer sb.Close()
	c.runner, c.stdout, c.out = sb, stdout, out
	return evaluateTasks(ctx, c, tasks, nil)
}

// evalConfig is how -evaluate evaluates, and where it writes: to stdout
// and into out (nil: only the page -html names).
type evalConfig struct {
	model, html string
	runner      exec.Runner
	stdout      io.Writer
	out         *cmdkit.OutDir
}

// evaluateTasks evaluates tasks with the model, writes the report page (with
// the funnel of res, when the tasks were generated here) and prints the
// inspection. The reference checks are cached in the user's cache: a
// second model's run of the same tasks pays for none.
func evaluateTasks(ctx context.Context, c evalConfig, tasks []adapt.Task, res *mutate.Result) error {
	stdout, out := c.stdout, c.out
	m, err := chooseModel(c.model)
	if err != nil {
		return err
	}
	opts := &adapt.Options{Template: mutate.Prompt, Runner: c.runner, Answer: mutate.Answer}
	if dir, err := os.UserCacheDir(); err == nil {
		opts.ReferenceCache = filepath.Join(dir, "adaptbench", "references")
	}
	bar := progress.New(os.Stderr, m.Name())
	opts.Progress = bar.Report
	rep, err := adapt.Evaluate(ctx, tasks, m, opts)
	bar.Close()
	if err != nil {
		return err
	}
	hopts := &htmlreport.Options{Tasks: tasks}
	if res != nil {
		hopts.Sections = []report.Section{res.HTMLSection()}
	}
	write := func(w io.Writer) error { return htmlreport.Write(w, rep, hopts) }
	if c.html != "" {
		err = cmdkit.WriteFile(stdout, c.html, write)
	} else {
		err = out.Write("report.html", write)
	}
	if err != nil {
		return err
	}
	return writeInspection(stdout, rep, tasks, m.Name())
}

// openProject opens the project at dir with its build system: Maven when
// dir holds a pom.xml, else a Go module (of packages, comma-separated; ""
// means its root package). A caller of mutate picks the build system
// this way: mutate.Generate takes any mutate.Project.
func openProject(ctx context.Context, dir, pkgs string, sb exec.Runner) (mutate.Project, error) {
	if _, statErr := os.Stat(filepath.Join(dir, "pom.xml")); statErr == nil {
		proj, err := maven.Open(ctx, dir, sb, nil)
		if err != nil {
			return nil, err
		}
		return proj, nil
	}
	cfg := &gomod.Config{}
	if pkgs != "" {
		cfg.Packages = strings.Split(pkgs, ",")
	}
	proj, err := gomod.Open(dir, sb, cfg)
	switch {
	case err != nil && pkgs == "":
		return nil, flagError{err, "gomod.Config.Packages", "-packages"}
	case err != nil:
		return nil, err // a directory with neither pom.xml nor go.mod says so here
	}
	return proj, nil
}

// generate runs mutate.Generate with a progress bar and prints what it
// found: the funnel (in full to csvs[0]), every mutant (to csvs[1]), the
// pilot gates and the validation's speed; an empty path writes no file.
func generate(ctx context.Context, proj mutate.Project, cfg *mutate.Options, stdout io.Writer, csvs [2]string) (*mutate.Result, error) {
	funnelCSV, mutantsCSV := csvs[0], csvs[1]
	bar := progress.New(os.Stderr, "mutate")
	cfg.Progress = bar.Report
	res, err := mutate.Generate(ctx, proj, cfg)
	bar.Close()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "%d tests (%d stable, flaky %v); %d fragments, %d covered, %d sampled\n\n",
		len(res.Tests), len(res.Stable), res.Flaky, res.Fragments, res.Covered, res.Sampled)
	if err := writeFunnel(stdout, res, funnelCSV); err != nil {
		return nil, err
	}
	if err := writeMutants(res, mutantsCSV); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "\n%s\n", res.Gates())
	fmt.Fprintf(stdout, "%s\n", res.Summary())
	checked := 0
	for _, c := range res.Candidates {
		if c.Reason != mutate.ReasonNoEdit && c.Reason != mutate.ReasonOverlap && c.Reason != mutate.ReasonParse && c.Reason != mutate.ReasonConstituent {
			checked++
		}
	}
	rate := 0.0
	if res.Total > 0 {
		rate = float64(checked) / res.Total.Seconds()
	}
	fmt.Fprintf(stdout, "checked %d mutants (compiled and tested) in %v wall time (%.2f mutants/s; build %v, tests %v)\n",
		checked, res.Total.Round(time.Millisecond), rate, res.BuildTime.Round(time.Millisecond), res.TestTime.Round(time.Millisecond))
	if b := res.Batches; b.Checks > 0 {
		fmt.Fprintf(stdout, "%d of %d checks in shared test processes made alone after all\n", b.Alone, b.Checks)
		for _, e := range b.Errors {
			log.Printf("a batch of checks failed, so its checks were made alone: %s", e)
		}
	}
	return res, nil
}

// chooseModel returns the model -model names.
func chooseModel(model string) (adapt.Model, error) {
	switch model {
	case "reference":
		return adapt.Reference, nil
	case "identity":
		return adapt.Identity, nil
	case "openai":
		if os.Getenv("OPENAI_BASE_URL") == "" {
			return nil, errors.New("-model openai needs OPENAI_BASE_URL")
		}
		cfg := openai.EnvConfig(os.Getenv("OPENAI_MODEL"))
		return openai.New(&cfg)
	}
	return nil, fmt.Errorf("unknown model %q", model)
}

// writeInspection prints, per operator combination, the samples, how many
// passed, and the inspection classes of which mutations the model
// reversed.
func writeInspection(stdout io.Writer, rep *report.Report, tasks []adapt.Task, name string) error {
	type row struct{ n, passed, restored, alternative, reversed, mutations int }
	rows := map[string]*row{}
	var err error
	byID := map[string]*adapt.Task{}
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	for _, tr := range rep.PerTask {
		t := byID[tr.TaskID]
		for _, s := range tr.Samples {
			passed := s.Outcome == report.OutcomePassed
			in := mutate.Inspection{}
			if s.Code != "" {
				// The function that was tested, the snippet spliced in.
				if in, err = mutate.Inspect(t, strings.TrimRight(s.Code, "\n")); err != nil {
					return err
				}
			}
			k := t.Labels[mutate.LabelOperators]
			r := rows[k]
			if r == nil {
				r = &row{}
				rows[k] = r
			}
			r.n++
			r.mutations += len(in.Verdicts)
			r.reversed += in.Reversed()
			if passed {
				r.passed++
				if in.Classify(true) == mutate.ClassRestored {
					r.restored++
				} else {
					r.alternative++
				}
			}
		}
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if p1, ok := rep.Score(1); ok {
		fmt.Fprintf(stdout, "\nmodel %s: pass@1 %.3f over %d of %d valid tasks\n", name, p1, rep.PassAtK[0].Tasks, rep.Valid)
	} else {
		fmt.Fprintf(stdout, "\nmodel %s: no pass@1 (%d valid tasks, %d unscored)\n", name, rep.Valid, len(rep.Unscored))
	}
	fmt.Fprintf(stdout, "%-40s %7s %7s %9s %12s %9s\n", "operators", "samples", "passed", "restored", "alternative", "reversed")
	for _, k := range keys {
		r := rows[k]
		fmt.Fprintf(stdout, "%-40s %7d %7d %9d %12d %5d/%-3d\n", k, r.n, r.passed, r.restored, r.alternative, r.reversed, r.mutations)
	}
	return cmdkit.CheckRun(rep, os.Stderr)
}

// writeFunnel prints the compact funnel (a row per L1 operator and per
// level) and writes every operator combination's row as CSV to csvPath,
// unless it is empty.
func writeFunnel(stdout io.Writer, res *mutate.Result, csvPath string) error {
	if err := res.FunnelSummary().WriteTable(stdout); err != nil {
		return err
	}
	if csvPath == "" {
		return nil
	}
	f, err := os.Create(csvPath)
	if err != nil {
		return err
	}
	if err := res.Funnel.WriteCSV(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "(%d operator combinations in full in %s)\n", len(res.Funnel.Groups()), csvPath)
	return nil
}

// flagError is a library error that names an option the command sets with
// a flag: its message names the flag.
type flagError struct {
	err          error
	option, flag string
}

func (e flagError) Error() string { return strings.ReplaceAll(e.err.Error(), e.option, e.flag) }
func (e flagError) Unwrap() error { return e.err }

// writeMutants writes a row per candidate of res to csvPath (unless it is
// empty): where, which operators, the verdict, the effective level of a
// valid one and the tests that caught it.
func writeMutants(res *mutate.Result, csvPath string) error {
	if csvPath == "" {
		return nil
	}
	f, err := os.Create(csvPath)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write([]string{"file", "line", "end_line", "level", "operators", "seed", "verdict", "effective", "detected_by", "failing"})
	for _, c := range res.Candidates {
		verdict, eff, by := c.Reason.String(), "", ""
		if c.Valid() {
			verdict, eff, by = "valid", c.Effective().String(), c.DetectedBy()
		}
		w.Write([]string{c.File, strconv.Itoa(c.Frag.Line), strconv.Itoa(c.Frag.EndLine), c.Level.String(), c.Key(),
			strconv.FormatUint(c.Seed, 10), verdict, eff, by, strings.Join(c.Failing, " ")})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fileSize says how large the task file is and what its shared bases hold.
func fileSize(name string, tasks []adapt.Task) string {
	fi, err := os.Stat(name)
	if err != nil {
		return ""
	}
	bases := map[string]*adapt.Base{}
	for i := range tasks {
		if b := tasks[i].Base; b != nil {
			bases[b.Digest()] = b
		}
	}
	files, size := 0, 0
	for _, b := range bases {
		files += b.Len()
		size += b.Size()
	}
	return fmt.Sprintf(" (%d bytes; %d shared base of %d files, %d bytes)", fi.Size(), len(bases), files, size)
}
