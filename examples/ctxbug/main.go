// Ctxbug builds a CtxBugGen benchmark from ClassEval and evaluates models
// on it, end to end (Zhang et al., FSE'26):
//
//  1. perturb every ClassEval method with the ten rules and obfuscate the
//     templates;
//  2. have a generator fill the holes without the target context (the
//     built-in deterministic "implanter", a recorded replay file, or an
//     OpenAI-compatible model);
//  3. keep the variants that fail the class's tests and differ from the
//     solution exactly at a perturbed node (the funnel is printed);
//  4. implant IsoBugs at the same locations;
//  5. write the three benchmark variants as adapt task JSONL, evaluate the
//     tested models on them, and print the paper's tables: the
//     generator × tested-model grid (Table 4), w/ vs w/o CtxBugs (Table 5)
//     and w/ CtxBugs vs w/ IsoBugs on the paired subset (Table 6).
//
// Offline, on five classes:
//
//	go run ./examples/ctxbug -data ../shared/data/classeval/ClassEval_data.json -only 'ClassEval_(1|11|21|31|41)\.'
//
// With a model at OPENAI_BASE_URL as generator and as tested model:
//
//	go run ./examples/ctxbug -data ClassEval_data.json -generator openai -openai-model gpt-4o -test reference,copy,openai
//
// Everything is written to -out (a new directory ctxbug-N by default),
// each file named as it is written: the generator's outputs as a replay file
// (generations.jsonl; pass it back with -generator replay -replay …), the
// funnel, the instances, the tasks of each setting, the results and the
// tables.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/ctxbug"
	"github.com/adaptbench/adaptbench/ctxbug/ctxbugtest"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
)

func main() {
	data := flag.String("data", "", "ClassEval_data.json")
	only := flag.String("only", "", "use only the methods whose ID (ClassEval_N.method) matches this regular expression")
	genName := flag.String("generator", "implanter", "generator: implanter, replay or openai")
	replay := flag.String("replay", "", "with -generator replay: a generations.jsonl written by an earlier run")
	openaiModel := flag.String("openai-model", "", "the model to ask at OPENAI_BASE_URL (default $OPENAI_MODEL)")
	testNames := flag.String("test", "reference,copy", "tested models, comma-separated: reference, copy, openai; empty: build the benchmark only")
	samples := flag.Int("n", 1, "variants per template")
	seed := flag.Uint64("seed", 1, "seed of the implanter")
	cpu := flag.Duration("cpu", 20*time.Second, "CPU time per test run")
	runnerName := flag.String("runner", "forkserver", "test runner: forkserver (a warmed interpreter forked per run, in the sandbox) or sandbox (a fresh interpreter per run)")
	out := cmdkit.OutFlag(flag.CommandLine, "ctxbug")
	flag.Parse()
	log.SetFlags(0)
	if *data == "" {
		log.Fatal("ctxbug: -data names ClassEval_data.json")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir, err := cmdkit.OpenOutDir(*out, "ctxbug", os.Stderr)
	if err != nil {
		log.Fatal(err)
	}
	*out = dir.Path()

	// Step 1: the templates.
	bases, nClasses := loadBases(*data, *only)
	byID := ctxbug.BaseMap(bases)
	jobs, err := ctxbug.Jobs(bases, ctxbug.Rules)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d methods of %d classes: %d templates\n", len(bases), nClasses, len(jobs))

	sb, closeRunner := newRunner(*runnerName)
	defer closeRunner()
	// A generous wall limit: on a loaded machine the default (twice the CPU
	// time) stops EightPuzzle's search before its CPU time is up.
	lim := exec.Limits{CPUTime: *cpu, WallTime: 5 * *cpu}

	// Steps 2 and 3: CtxBugs.
	gen, err := generator(*genName, *replay, jobs, *seed, openAIFlags{*openaiModel, *out})
	if err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	cands, id := identify(ctx, gen, jobs, "CtxBugs", &ctxbug.Options{Samples: *samples, Runner: sb, Limits: lim})
	fmt.Printf("\n## CtxBug identification (%d candidates, %d instances, %v)\n\n", len(cands), len(id.Instances), time.Since(start).Round(time.Second))
	must(id.Funnel.WriteTable(os.Stdout))
	must(writeWith(filepath.Join(*out, "funnel.md"), id.Funnel.WriteTable))
	must(writeWith(filepath.Join(*out, "instances.jsonl"), func(w io.Writer) error { return ctxbug.WriteInstances(w, id.Instances) }))

	// Step 4: IsoBugs at the same locations, by the same generator.
	isoJobs, err := ctxbug.IsoJobs(byID, id.Instances)
	if err != nil {
		log.Fatal(err)
	}
	if im, ok := gen.(*ctxbugtest.Implanter); ok {
		im.Add(isoJobs...)
	}
	isoCands, iso := identify(ctx, gen, isoJobs, "IsoBugs", &ctxbug.Options{Runner: sb, Limits: lim})
	must(writeRecorded(filepath.Join(*out, "generations.jsonl"), append(cands, isoCands...)))
	fmt.Printf("\n## IsoBug identification (%d candidates, %d instances)\n\n", len(isoCands), len(iso.Instances))
	must(iso.Funnel.WriteTable(os.Stdout))
	must(writeWith(filepath.Join(*out, "iso_instances.jsonl"), func(w io.Writer) error { return ctxbug.WriteInstances(w, iso.Instances) }))

	// Step 5: the benchmark, and the tested models on it.
	tasks := writeTasks(*out, byID, id.Instances, iso.Instances)
	if *testNames == "" {
		return
	}
	var results []ctxbug.TaskResult
	var unhealthy error
	for _, name := range strings.Split(*testNames, ",") {
		m, err := tested(name, openAIFlags{*openaiModel, *out})
		if err != nil {
			log.Fatal(err)
		}
		bar := progress.New(os.Stderr, name)
		sc, err := ctxbug.Evaluate(ctx, tasks, m, &ctxbug.EvalOptions{Runner: sb, Limits: lim, Logprobs: name == "openai", Progress: bar.Report})
		bar.Close()
		if err != nil {
			log.Fatal(err)
		}
		must(writeWith(filepath.Join(*out, "report_"+name+".html"), func(w io.Writer) error {
			return htmlreport.Write(w, sc.Report, &htmlreport.Options{Tasks: tasks, Sections: []report.Section{{Title: "ctxbug: candidates through identification", Funnel: &id.Funnel}}})
		}))
		results = append(results, sc.Results...)
		// A check the harness could not make is no verdict: said after
		// the outputs are written, with a non-zero exit.
		if err := cmdkit.CheckRun(sc.Report, os.Stderr); err != nil && unhealthy == nil {
			unhealthy = fmt.Errorf("%s: %w", name, err)
		}
	}
	must(writeWith(filepath.Join(*out, "results.jsonl"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}))
	must(writeWith(filepath.Join(*out, "tables.md"), func(w io.Writer) error { return tables(io.MultiWriter(w, os.Stdout), results) }))
	if unhealthy != nil {
		log.Fatal(unhealthy)
	}
}

// loadBases reads the ClassEval methods of data whose ID matches only
// (all when only is empty), and the number of classes in data.
func loadBases(data, only string) ([]*ctxbug.Base, int) {
	classes, err := classeval.ReadFile(data)
	if err != nil {
		log.Fatal(err)
	}
	bases, err := ctxbug.FromClassEval(classes, data)
	if err != nil {
		log.Fatal(err)
	}
	if only == "" {
		return bases, len(classes)
	}
	re, err := regexp.Compile(only)
	if err != nil {
		log.Fatal(err)
	}
	var keep []*ctxbug.Base
	for _, b := range bases {
		if re.MatchString(b.ID()) {
			keep = append(keep, b)
		}
	}
	return keep, len(classes)
}

// newRunner returns the named test runner and the function that closes it.
func newRunner(name string) (exec.Runner, func()) {
	box, err := sandbox.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	switch name {
	case "sandbox":
		return box, func() { box.Close() }
	case "forkserver":
		fs, err := sandbox.NewForkServer(box, nil)
		if err != nil {
			log.Fatal(err)
		}
		return fs, func() { fs.Close(); box.Close() }
	}
	log.Fatalf("ctxbug: unknown runner %q (want sandbox or forkserver)", name)
	return nil, nil
}

// identify asks gen to fill the jobs and identifies the bugs among its
// variants, with a progress bar for each ("<what> infill", "<what>").
func identify(ctx context.Context, gen adapt.Model, jobs []*ctxbug.Job, what string, opts *ctxbug.Options) ([]*ctxbug.Candidate, *ctxbug.Result) {
	bar := progress.New(os.Stderr, what+" infill")
	opts.Progress = bar.Report
	cands, err := ctxbug.Draw(ctx, gen, jobs, opts)
	bar.Close()
	if err != nil {
		log.Fatal(err)
	}
	bar = progress.New(os.Stderr, what)
	opts.Progress = bar.Report
	id, err := ctxbug.Identify(ctx, cands, opts)
	bar.Close()
	if err != nil {
		log.Fatal(err)
	}
	return cands, id
}

// writeTasks writes the tasks of the three settings to out and returns
// them, CtxBugs, without them, and IsoBugs in order.
func writeTasks(out string, byID map[string]*ctxbug.Base, ctxIns, isoIns []*ctxbug.Instance) []adapt.Task {
	var tasks []adapt.Task
	for _, s := range []ctxbug.Setting{ctxbug.WithCtxBugs, ctxbug.WithoutCtxBugs} {
		ts, err := ctxbug.Tasks(byID, ctxIns, s)
		if err != nil {
			log.Fatal(err)
		}
		must(saveTasks(filepath.Join(out, "tasks_"+string(s)+".jsonl"), ts))
		tasks = append(tasks, ts...)
	}
	ts, err := ctxbug.Tasks(byID, isoIns, ctxbug.WithIsoBugs)
	if err != nil {
		log.Fatal(err)
	}
	must(saveTasks(filepath.Join(out, "tasks_isobug.jsonl"), ts))
	return append(tasks, ts...)
}

// saveTasks writes tasks to path and says so.
func saveTasks(path string, tasks []adapt.Task) error {
	if err := adapt.SaveFile(path, tasks); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	return nil
}

// tables prints the paper's Tables 4–6 for the results.
func tables(w io.Writer, results []ctxbug.TaskResult) error {
	var ctxRes, woRes, isoRes []ctxbug.TaskResult
	for _, r := range results {
		switch r.Setting {
		case ctxbug.WithCtxBugs:
			ctxRes = append(ctxRes, r)
		case ctxbug.WithoutCtxBugs:
			woRes = append(woRes, r)
		case ctxbug.WithIsoBugs:
			isoRes = append(isoRes, r)
		}
	}
	rows := ctxbug.Aggregate(ctxRes)
	var models []string
	for _, r := range rows {
		if !slices.Contains(models, r.Model) {
			models = append(models, r.Model)
		}
	}
	grid := rows
	for _, m := range models {
		grid = append(grid, ctxbug.Average(rows, m, ctxbug.WithCtxBugs))
	}
	fmt.Fprint(w, "\n## Table 4: CtxBug resolution (Pass@1 / RR, %)\n\n")
	if err := grid.WriteTable(w); err != nil {
		return err
	}
	fmt.Fprint(w, "\n## Table 5: w/ vs w/o CtxBugs (each model averaged over generators)\n\n")
	wo := ctxbug.Aggregate(woRes)
	var t5 ctxbug.Table
	for _, m := range models {
		t5 = append(t5, ctxbug.Average(rows, m, ctxbug.WithCtxBugs), ctxbug.Average(wo, m, ctxbug.WithoutCtxBugs))
	}
	if err := t5.WriteTable(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for i := 0; i+1 < len(t5); i += 2 {
		if err := t5[i].WriteDegradation(w, t5[i+1]); err != nil {
			return err
		}
	}
	fmt.Fprint(w, "\n## Table 6: w/ CtxBugs vs w/ IsoBugs (paired subset)\n\n")
	paired := ctxbug.Aggregate(ctxbug.Paired(ctxRes, isoRes))
	isoRows := ctxbug.Aggregate(isoRes)
	var t6 ctxbug.Table
	for _, m := range models {
		t6 = append(t6, ctxbug.Average(paired, m, ctxbug.WithCtxBugs), ctxbug.Average(isoRows, m, ctxbug.WithIsoBugs))
	}
	if err := t6.WriteTable(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for i := 0; i+1 < len(t6); i += 2 {
		if err := t6[i].WriteDegradation(w, t6[i+1]); err != nil {
			return err
		}
	}
	fmt.Fprint(w, "\n## Table 7: average token probability of overlooked CtxBugs\n\n| Model-T | ATP | instances |\n|---|---|---|\n")
	for _, m := range models {
		atp, n := ctxbug.MeanATP(ctxRes, m)
		if n == 0 {
			fmt.Fprintf(w, "| %s | - (no log-probabilities or nothing overlooked) | 0 |\n", m)
			continue
		}
		fmt.Fprintf(w, "| %s | %.3f | %d |\n", m, atp, n)
	}
	return nil
}

// openAIFlags are the -openai-model flag and the output directory, which
// holds the OpenAI response cache.
type openAIFlags struct{ model, out string }

// generator is the generator model -generator names: the implanter (over
// jobs, seeded), a replay of recorded completions, or an OpenAI model.
func generator(name, replay string, jobs []*ctxbug.Job, seed uint64, oa openAIFlags) (adapt.Model, error) {
	switch name {
	case "implanter":
		return ctxbugtest.NewImplanter(seed, jobs...), nil
	case "replay":
		if replay == "" {
			return nil, fmt.Errorf("ctxbug: -generator replay needs -replay FILE")
		}
		return adapt.LoadReplay("replay", replay)
	case "openai":
		return openAI(oa.model, oa.out)
	}
	return nil, fmt.Errorf("ctxbug: unknown generator %q (want implanter, replay or openai)", name)
}

func tested(name string, oa openAIFlags) (adapt.Model, error) {
	switch name {
	case "reference":
		return adapt.Reference, nil
	case "copy":
		return ctxbugtest.Copier(), nil
	case "openai":
		return openAI(oa.model, oa.out)
	}
	return nil, fmt.Errorf("ctxbug: unknown tested model %q (want reference, copy or openai)", name)
}

func openAI(model, out string) (adapt.Model, error) {
	cfg := openai.EnvConfig(model)
	cfg.Cache = &openai.Cache{Dir: filepath.Join(out, "openai-cache")}
	return openai.New(&cfg)
}

// writeRecorded writes the generator's completions as an adapt.Replay
// file keyed by job ID.
func writeRecorded(path string, cands []*ctxbug.Candidate) error {
	return writeWith(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, c := range cands {
			if c.Completion.Err != "" {
				continue
			}
			if err := enc.Encode(adapt.Recorded{Task: c.Job.ID, Sample: c.Sample, Completion: c.Completion}); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeWith writes the file at path and says so.
func writeWith(path string, fn func(io.Writer) error) error {
	return cmdkit.WriteFile(os.Stderr, path, fn)
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
