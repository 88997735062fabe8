// Adapteval evaluates a model on AdaptEval, read from a checkout of its
// public repository, in one of the paper's prompt settings, and prints the
// paper's tables: task-level pass@1-t and pass@k-t (Table IV),
// adaptation-level pass@1-a by category and type (Table V) and the error
// distribution (Table VI). With two samples or more per task it prints the
// Leak Ratio of Table IX: the share of tasks whose samples CDD finds
// peaked around the ground truth (the tasks measured, α and ξ stated).
// With -leakage it also runs the paper's leakage probe: the same tasks
// with their snippets' parameters and locals renamed, and the change in
// the scores (Table IX).
//
//	git clone https://github.com/ztwater/AdaptEval
//	go run ./examples/adapteval -repo AdaptEval -model reference -n 1
//	OPENAI_API_KEY=… go run ./examples/adapteval -repo AdaptEval -model openai -openai-model gpt-4o -setting areq-oracle -n 5 -out results/
//
// The run is journaled in -out (a new directory adapteval-N by default),
// so that running it again with the same -out resumes; the report files
// are written there too, each named as it is: the load report, the
// report.Report (JSON, Markdown, CSV) and the tables (Markdown, JSON).
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
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
)

func main() {
	repo := flag.String("repo", "", "checkout of the AdaptEval repository (the directory with metadata.json)")
	modelName := flag.String("model", "reference", "model: reference, identity or openai")
	openaiModel := flag.String("openai-model", "", "with -model openai: the model to ask at OPENAI_BASE_URL (default $OPENAI_MODEL)")
	settingName := flag.String("setting", adapteval.Settings[0].Name, "prompt setting: areq-oracle, areq-noctx, treq-oracle, treq-noctx or noreq")
	categoryOnly := flag.Bool("category-only", false, "show only the category of each adaptation type, as the artifact's example prompts")
	n := flag.Int("n", adapteval.Samples, "samples per task")
	out := cmdkit.OutFlag(flag.CommandLine, "adapteval")
	only := flag.String("only", "", "evaluate only the tasks whose ID matches this regular expression")
	leakage := flag.Bool("leakage", false, "also evaluate the obfuscated snippets and report the change (the paper's leakage probe)")
	flag.Parse()
	log.SetFlags(0)
	if *repo == "" {
		log.Fatal("adapteval: -repo names the checkout of github.com/ztwater/AdaptEval")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	setting, err := adapteval.SettingByName(*settingName)
	if err != nil {
		log.Fatal(err)
	}
	setting.CategoryOnly = *categoryOnly
	dir, err := cmdkit.OpenOutDir(*out, "adapteval", os.Stderr)
	if err != nil {
		log.Fatal(err)
	}
	*out = dir.Path()

	tasks, lrep, err := adapteval.LoadDir(*repo)
	if err != nil {
		log.Fatal(err)
	}
	if err := writeFile(filepath.Join(*out, "load_report.txt"), lrep.WriteText); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d repositories, %d tasks, %d adaptations in metadata.json; %d tasks loaded (%d left out), %d irregularities tolerated (see %s)\n",
		lrep.Repos, lrep.Tasks, lrep.Adaptations, lrep.Loaded, len(lrep.Skipped()), len(lrep.Issues), filepath.Join(*out, "load_report.txt"))
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			log.Fatal(err)
		}
		var keep []adapt.Task
		for _, t := range tasks {
			if re.MatchString(t.ID) {
				keep = append(keep, t)
			}
		}
		tasks = keep
	}
	if len(tasks) == 0 {
		log.Fatal("adapteval: no task to evaluate")
	}

	model, err := pickModel(*modelName, *openaiModel, *out)
	if err != nil {
		log.Fatal(err)
	}
	sb, err := sandbox.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()

	name := fileName(model.Name() + "_" + setting.Template().Name)
	ev := evaluation{setting, *n, sb}
	rep, err := ev.run(ctx, tasks, model, filepath.Join(*out, name+"_journal.jsonl"))
	if err != nil {
		log.Fatal(err)
	}
	scores, err := adapteval.Score(rep, tasks)
	if err != nil {
		log.Fatal(err)
	}
	if err := scores.WriteTables(os.Stdout); err != nil {
		log.Fatal(err)
	}
	if err := save(*out, name, rep, scores, tasks); err != nil {
		log.Fatal(err)
	}
	if err := cmdkit.CheckRun(rep, os.Stderr); err != nil {
		log.Fatal(err)
	}
	if *n >= 2 {
		if err := leakRatio(rep, tasks, filepath.Join(*out, name+"_cdd.json")); err != nil {
			log.Fatal(err)
		}
	}

	if *leakage {
		variants, probe := adapteval.ObfuscatedTasks(tasks)
		for id, why := range probe.Skipped {
			fmt.Fprintf(os.Stderr, "leakage probe: no variant of %s: %s\n", id, why)
		}
		obf, err := ev.run(ctx, variants, probe.Model(model), filepath.Join(*out, name+"_obfuscated_journal.jsonl"))
		if err != nil {
			log.Fatal(err)
		}
		oscores, err := adapteval.Score(obf, variants)
		if err != nil {
			log.Fatal(err)
		}
		if err := save(*out, name+"_obfuscated", obf, oscores, variants); err != nil {
			log.Fatal(err)
		}
		l := adapteval.Delta(rep, obf)
		fmt.Printf("\nLeakage probe (obfuscated − original): %s\n", l)
		if err := writeFile(filepath.Join(*out, name+"_leakage.json"), func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(l)
		}); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Fprintf(os.Stderr, "reports in %s\n", *out)
}

// leakRatio prints the Leak Ratio of Table IX (CDD over the run's samples,
// against the ground truth) with CDD's default parameters and with those
// its authors used on ChatGPT, as the paper does not say which it used,
// and writes both results to path.
func leakRatio(rep *report.Report, tasks []adapt.Task, path string) error {
	var all []*adapteval.CDDReport
	fmt.Println()
	for _, p := range []adapteval.CDDParams{adapteval.CDDPaper, adapteval.CDDRealWorld} {
		r, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{Params: p})
		if err != nil {
			return err
		}
		fmt.Println(r)
		all = append(all, r)
	}
	return writeFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(all)
	})
}

// evaluation is the paper's protocol in one setting, n samples a task,
// run by r.
type evaluation struct {
	setting adapteval.Setting
	n       int
	runner  exec.Runner
}

// run evaluates the tasks with the model, journaled.
func (e evaluation) run(ctx context.Context, tasks []adapt.Task, m adapt.Model, journal string) (*report.Report, error) {
	opts := adapteval.Options(e.setting, e.n)
	opts.Runner = e.runner
	opts.Journal = journal
	bar := progress.New(os.Stderr, m.Name())
	opts.Progress = bar.Report
	rep, err := adapt.Evaluate(ctx, tasks, m, opts)
	bar.Close()
	if err == nil {
		fmt.Fprintf(os.Stderr, "wrote %s\n", journal)
	}
	return rep, err
}

func pickModel(name, openaiModel, out string) (adapt.Model, error) {
	switch name {
	case "reference":
		return adapt.Reference, nil
	case "identity":
		return adapt.Identity, nil
	case "openai":
		cfg := openai.EnvConfig(openaiModel)
		cfg.Cache = &openai.Cache{Dir: filepath.Join(out, "openai-cache"), Sampled: true}
		c, err := openai.New(&cfg)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "evaluating %s (answers cached in %s)\n", c, cfg.Cache.Dir)
		return c, nil
	}
	return nil, fmt.Errorf("adapteval: unknown model %q (want reference, identity or openai)", name)
}

// save writes the report (JSON, Markdown, CSV, HTML) and the tables.
func save(dir, name string, rep *report.Report, s *adapteval.Scores, tasks []adapt.Task) error {
	files := map[string]func(io.Writer) error{
		name + "_report.html":  func(w io.Writer) error { return htmlreport.Write(w, rep, &htmlreport.Options{Tasks: tasks}) },
		name + "_report.json":  rep.WriteJSON,
		name + "_report.md":    rep.WriteMarkdown,
		name + "_per_task.csv": rep.WriteCSV,
		name + "_tables.md":    s.WriteTables,
		name + "_scores.json":  s.WriteJSON,
	}
	for f, write := range files {
		if err := writeFile(filepath.Join(dir, f), write); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes the file at path and says so.
func writeFile(path string, write func(io.Writer) error) error {
	return cmdkit.WriteFile(os.Stderr, path, write)
}

// fileName makes a model and template name safe as a file name.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}
