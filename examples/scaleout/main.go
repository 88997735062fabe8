// Scaleout runs one evaluation as shards in separate processes, the way a
// Kubernetes Indexed Job or a Slurm job array runs it, and merges the
// shards' journals into the report a single run gives.
//
// Each member of the array runs
//
//	scaleout run -shards 3 -out /results
//
// and reads its shard from the scheduler's variables (adapt.ShardFromEnv:
// JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID and its siblings, AWS Batch's
// AWS_BATCH_JOB_ARRAY_INDEX or Google Cloud Batch's BATCH_TASK_INDEX); it writes
// /results/shard-<i>-of-<n>.jsonl and resumes from it when the scheduler
// runs it again. When every member has finished,
//
//	scaleout merge -out /results
//
// merges the journals (adapt.Merge refuses a missing or unfinished shard
// and names it) and writes report.json and report.md. Without scheduler
// variables, run evaluates every task in one process (journal run.jsonl).
// The evaluation is the embedded demo benchmark's Python tasks with an
// offline model; see README.md for the manifests.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
)

func main() {
	log.SetFlags(0)
	const usage = "usage: scaleout run|merge [-shards N] [-out DIR] [-model reference|identity] [-samples N] [-partial]"
	if len(os.Args) == 2 && (os.Args[1] == "-h" || os.Args[1] == "-help" || os.Args[1] == "--help") {
		fmt.Println(usage)
		return
	}
	if len(os.Args) < 2 || (os.Args[1] != "run" && os.Args[1] != "merge") {
		log.Fatal(usage)
	}
	cmd := os.Args[1]
	fl := flag.NewFlagSet(cmd, flag.ExitOnError)
	shards := fl.Int("shards", 0, "number of shards (a Kubernetes Indexed Job's completions; Slurm's array says it itself)")
	out := fl.String("out", "scaleout", "directory of the journals and the report, created if need be (every shard names the same)")
	model := fl.String("model", "reference", "offline model: reference or identity")
	samples := fl.Int("samples", 2, "completions per task")
	partial := fl.Bool("partial", false, "merge: merge even when shards are missing, listing what is")
	fl.Parse(os.Args[2:])

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tasks, err := pythonTasks()
	if err != nil {
		log.Fatal(err)
	}
	var rep *report.Report
	switch cmd {
	case "run":
		m := adapt.Reference
		if *model == "identity" {
			m = adapt.Identity
		} else if *model != "reference" {
			log.Fatalf("scaleout: unknown model %q (reference or identity)", *model)
		}
		shard, err := adapt.ShardFromEnv(*shards)
		if err != nil {
			log.Fatal(err)
		}
		// Every shard may create it at once: MkdirAll tolerates the race.
		if _, err := cmdkit.OpenOutDir(*out, "scaleout", os.Stderr); err != nil {
			log.Fatal(err)
		}
		journal := filepath.Join(*out, "run.jsonl")
		if shard.Count > 1 {
			journal = filepath.Join(*out, fmt.Sprintf("shard-%d-of-%d.jsonl", shard.Index, shard.Count))
		}
		log.Printf("scaleout: %s of %d tasks, journal %s", shard, len(tasks), journal)
		bar := progress.New(os.Stderr, m.Name()+", "+shard.String())
		rep, err = adapt.Evaluate(ctx, tasks, m, &adapt.Options{Samples: *samples, Shard: shard, Journal: journal, Breakdown: breakdown, Progress: bar.Report})
		bar.Close()
		if err != nil {
			log.Fatal(err)
		}
		log.Printf("wrote %s", journal)
		if shard.Count > 1 {
			log.Printf("scaleout: %s done; merge when every shard is", shard)
			return
		}
	case "merge":
		journals, err := filepath.Glob(filepath.Join(*out, "shard-*-of-*.jsonl"))
		if err != nil || len(journals) == 0 {
			log.Fatalf("scaleout: no shard journals in %s", *out)
		}
		slices.Sort(journals)
		rep, err = adapt.Merge(tasks, journals, &adapt.MergeOptions{Partial: *partial, Breakdown: breakdown})
		if err != nil {
			// The library names its option; this command's user sets it
			// with a flag.
			log.Fatal(strings.ReplaceAll(err.Error(), "MergeOptions.Partial", "-partial"))
		}
	}
	if err := write(rep, tasks, *out); err != nil {
		log.Fatal(err)
	}
	if err := cmdkit.CheckRun(rep, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

// breakdown is the label the report breaks scores down by: the demo
// tasks' domain. A single run and the merge of its shards name the same
// keys, so that their reports are the same.
var breakdown = []string{"domain"}

// pythonTasks are the demo benchmark's Python tasks.
func pythonTasks() ([]adapt.Task, error) {
	all, err := demo.Tasks()
	if err != nil {
		return nil, err
	}
	var tasks []adapt.Task
	for _, t := range all {
		if t.Language == adapt.Python {
			tasks = append(tasks, t)
		}
	}
	return tasks, nil
}

func write(rep *report.Report, tasks []adapt.Task, dir string) error {
	out, err := cmdkit.OpenOutDir(dir, "scaleout", os.Stderr)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"report.html", func(w io.Writer) error { return htmlreport.Write(w, rep, &htmlreport.Options{Tasks: tasks}) }},
		{"report.json", rep.WriteJSON},
		{"report.md", rep.WriteMarkdown},
	} {
		if err := out.Write(f.name, f.write); err != nil {
			return err
		}
	}
	return rep.WriteMarkdown(os.Stdout)
}
