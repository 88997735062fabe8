// Evolve runs GeneBench's search on HumanEval (or a slice of it): each
// problem's canonical solution is evolved with the 22 semantics-preserving
// operators, within an evaluation budget, keeping every variant that stays
// readable and passes the problem's own check(entry_point) test in the
// sandbox. It prints each program's relative complexity and readability
// before and after in the layout of the paper's Table 4, and writes the
// evolved benchmark as JSON Lines (the artifact's fields plus each pick's
// lineage: humaneval_evolved.jsonl), and with -tasks the derived tasks
// (tasks.jsonl), into -out (a new directory evolve-N by default), naming
// each file as it is written.
//
//	go run ./examples/evolve -data ../shared/data/humaneval/HumanEval.jsonl.gz -n 20 -budget 44 -seed 1 -out evolved
//	go run ./examples/evolve -data HumanEval.jsonl.gz -budget 100 -tasks -check
//
// The same data, -n, -budget and -seed give the same output file.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/evolve"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

func main() {
	def, _ := testenv.DataDir("humaneval/HumanEval.jsonl.gz")
	data := flag.String("data", def, "HumanEval.jsonl or HumanEval.jsonl.gz (default: from $ADAPTBENCH_DATA or ../shared/data)")
	n := flag.Int("n", 0, "evolve only the first n problems (0: all)")
	budget := flag.Int("budget", 44, "evaluations per program")
	seed := flag.Uint64("seed", 1, "seed of the search")
	par := flag.Int("parallel", 0, "offspring evaluated at once (0: one per CPU)")
	outFlag := cmdkit.OutFlag(flag.CommandLine, "evolve")
	tasksOut := flag.Bool("tasks", false, "also write the output-prediction, repair and adaptation tasks (tasks.jsonl, adapt's JSON Lines)")
	check := flag.Bool("check", false, "with -tasks: evaluate the tasks with the reference and identity models (report.html)")
	flag.Parse()
	log.SetFlags(0)
	if flag.NArg() > 0 {
		log.Fatalf("evolve: unexpected argument %q (every input is a flag; -tasks takes no file: the tasks go in -out)", flag.Arg(0))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	if *data == "" {
		_, msg := testenv.DataDir("humaneval/HumanEval.jsonl.gz")
		log.Fatalf("evolve: no -data: %s", msg)
	}
	out, err := cmdkit.OpenOutDir(*outFlag, "evolve", os.Stdout)
	if err != nil {
		log.Fatal(err)
	}
	tasks, err := humaneval.LoadFile(*data)
	if err != nil {
		log.Fatal(err)
	}
	if *n > 0 && *n < len(tasks) {
		tasks = tasks[:*n]
	}
	subjects := make([]*evolve.Subject, len(tasks))
	for i := range tasks {
		if subjects[i], err = evolve.FromTask(&tasks[i]); err != nil {
			log.Fatal(err)
		}
	}
	tester, closeTester, err := evolve.DefaultTester()
	if err != nil {
		log.Fatal(err)
	}
	defer closeTester()

	start := time.Now()
	bar := progress.New(os.Stderr, "evolve")
	rep, err := evolve.Generate(ctx, subjects, &evolve.Options{Evaluations: *budget, Seed: *seed, Parallelism: *par, Tester: tester, Progress: bar.Report})
	bar.Close()
	if err != nil {
		log.Fatal(err)
	}
	elapsed := time.Since(start)
	if err := rep.WriteTable(os.Stdout, "HumanEval"); err != nil {
		log.Fatal(err)
	}
	s, st := rep.Summary(), tester.Stats()
	fmt.Printf("\n%d programs, %d evolved, %d skipped (original fails), %d errors\n", s.Programs, s.Evolved, s.Skipped, s.Errors)
	fmt.Printf("RC %.4f -> %.4f, RR %.4f -> %.4f\n", s.RCBefore, s.RCAfter, s.RRBefore, s.RRAfter)
	fmt.Printf("%d evaluations (%.1f/s), %d test runs, %d cache hits, in %v\n", s.Evaluations, float64(s.Evaluations)/elapsed.Seconds(), st.Runs, st.Hits, elapsed.Round(time.Millisecond))
	for res := range rep.All() {
		if res.Err != nil && !errors.Is(res.Err, evolve.ErrOriginalFails) {
			log.Printf("%s: %v", res.Subject, res.Err)
		}
	}

	// Check every pick again with a fresh tester (no cache): each must
	// pass its original tests.
	verifier, closeVerifier, err := evolve.DefaultTester()
	if err != nil {
		log.Fatal(err)
	}
	passed, checked := 0, 0
	for i, res := range rep.Evolutions {
		if res.Err != nil || res.Best == 0 {
			continue
		}
		checked++
		out, err := verifier.Test(ctx, subjects[i].Suite, res.Evolved().Program)
		switch {
		case err != nil:
			log.Fatal(err)
		case out.Passed():
			passed++
		default:
			log.Printf("%s: the pick fails on a second run: %v %s", res.Subject, out.Verdict, out.Detail)
		}
	}
	closeVerifier()
	fmt.Printf("verified: %d of %d evolved programs pass their tests again\n", passed, checked)

	if err := out.Write("humaneval_evolved.jsonl", func(w io.Writer) error { return rep.WriteJSONL(w, "humaneval") }); err != nil {
		log.Fatal(err)
	}

	if *tasksOut {
		derived := deriveTasks(ctx, subjects, rep, tester, *seed)
		if err := adapt.SaveFile(out.Join("tasks.jsonl"), derived); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("wrote %s: %d tasks\n", out.Join("tasks.jsonl"), len(derived))
		if *check {
			checkTasks(ctx, derived, out, rep.HTMLSection())
		}
	}
}

// checkTasks evaluates the derived tasks with the Reference model (the
// gold answers: every task must pass) and the Identity model (the code as
// given: the buggy program of a repair task must fail), writes both to
// report.html in out (with the search's section), and prints pass@1
// by task kind and version.
func checkTasks(ctx context.Context, tasks []adapt.Task, out *cmdkit.OutDir, search report.Section) {
	var reports []*report.Report
	fs, err := sandbox.NewPythonRunner(&sandbox.ForkServerConfig{Preload: evolve.PreloadList()})
	if err != nil {
		log.Fatal(err)
	}
	defer fs.Close()
	for _, m := range []adapt.Model{adapt.Reference, adapt.Identity} {
		bar := progress.New(os.Stderr, m.Name())
		rep, err := adapt.Evaluate(ctx, tasks, m, &adapt.Options{Runner: fs, NoGold: true, Limits: evolve.DefaultLimits, Breakdown: []string{"genebench", "version"}, Progress: bar.Report})
		bar.Close()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s:", m.Name())
		for _, b := range rep.Breakdowns {
			if key, ok := strings.CutPrefix(b.By, "label:"); ok {
				fmt.Printf("  %s=%s %.3f (%d)", key, b.Value, b.PassAt1, b.Count)
			}
		}
		p1, _ := rep.Score(1)
		fmt.Printf("  all %.3f\n", p1)
		reports = append(reports, rep)
	}
	if err := out.Write("report.html", func(w io.Writer) error {
		return htmlreport.Write(w, reports[0], &htmlreport.Options{Tasks: tasks, Runs: reports[1:], Sections: []report.Section{search}})
	}); err != nil {
		log.Fatal(err)
	}
	for _, rep := range reports {
		if err := cmdkit.CheckRun(rep, os.Stderr); err != nil {
			log.Fatal(err)
		}
	}
}

// deriveTasks makes the output-prediction and repair pairs (original and
// evolved) and the adaptation task of every evolved program that has them.
func deriveTasks(ctx context.Context, subjects []*evolve.Subject, rep *evolve.Result, tester *evolve.Tester, seed uint64) []adapt.Task {
	var out []adapt.Task
	for i, res := range rep.Evolutions {
		if res.Err != nil || res.Best == 0 {
			continue
		}
		s := subjects[i]
		if ts, err := evolve.OutputPrediction(s, res); err == nil {
			out = append(out, ts...)
		}
		ts, _, err := evolve.Repair(ctx, s, res, tester, &evolve.RepairOptions{Seed: seed})
		switch {
		case err == nil:
			out = append(out, ts...)
		case !errors.Is(err, evolve.ErrNoBug):
			log.Printf("%s: repair: %v", s.ID, err)
		}
		if t, err := evolve.Adaptation(s, res); err == nil {
			out = append(out, t)
		} else {
			log.Printf("%s: adaptation: %v", s.ID, err)
		}
	}
	return out
}
