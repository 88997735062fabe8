// Quickstart evaluates models on adaptbench's embedded demo benchmark, with
// no network: the Reference model (the gold answers, which must pass every
// valid task) and the Identity model (the unadapted code, which should fail
// most). With OPENAI_BASE_URL or OPENAI_API_KEY set, it evaluates that
// endpoint's model instead (OPENAI_MODEL or -model names it), caching its
// answers on disk so that a rerun pays nothing.
//
//	go run ./examples/quickstart
//	go run ./examples/quickstart -samples 3 -template treq-oracle -out results
//
// It writes report.html (the reports as one page: plots, every sample)
// and report.json (the reports as JSON) into -out, a new directory
// quickstart-N by default, and says "wrote PATH" for each.
//
//	OPENAI_BASE_URL=http://localhost:8000/v1 OPENAI_MODEL=qwen2.5-coder go run ./examples/quickstart -samples 5 -temperature 0.2
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	osexec "os/exec"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
)

func main() {
	samples := flag.Int("samples", 1, "completions per task")
	template := flag.String("template", adapt.AdaptationLevel.Name, "prompt template")
	outFlag := cmdkit.OutFlag(flag.CommandLine, "quickstart")
	full := flag.Bool("full", false, "print each model's full report (breakdowns by type and label, invalid tasks)")
	modelName := flag.String("model", "", "model to ask at OPENAI_BASE_URL (default $OPENAI_MODEL)")
	temperature := flag.Float64("temperature", 0, "sampling temperature for a hosted model")
	flag.Parse()
	log.SetFlags(0)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	out, err := cmdkit.OpenOutDir(*outFlag, "quickstart", os.Stderr)
	if err != nil {
		log.Fatal(err)
	}
	tasks, err := demo.Tasks()
	if err != nil {
		log.Fatal(err)
	}
	tasks = usable(tasks)
	tmpl, err := adapt.TemplateByName(*template)
	if err != nil {
		log.Fatal(err)
	}
	// Said first: the first run on a machine builds the Go tasks'
	// dependencies cold, and the progress lines only follow.
	fmt.Fprintf(os.Stderr, "starting the sandbox for %d demo tasks; a first run on a machine builds the Go and Java tasks cold and takes longer\n", len(tasks))
	sb, err := sandbox.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()

	models := []adapt.Model{adapt.Reference, adapt.Identity}
	if os.Getenv("OPENAI_BASE_URL") != "" || os.Getenv("OPENAI_API_KEY") != "" {
		m, err := hosted(*modelName)
		if err != nil {
			log.Fatal(err)
		}
		models = []adapt.Model{m}
	}
	var stdout io.Writer = os.Stdout
	fmt.Fprintf(os.Stderr, "evaluating %d demo tasks in the sandbox (%s)\n", len(tasks), sb.Isolation())
	var reports []*report.Report
	for _, m := range models {
		start := time.Now()
		bar := progress.New(os.Stderr, m.Name())
		rep, err := adapt.Evaluate(ctx, tasks, m, &adapt.Options{
			Samples:  *samples,
			Sampling: report.Sampling{Temperature: *temperature},
			Template: tmpl,
			Runner:   sb,
			Progress: bar.Report,
			// The demo tasks' one label: -full breaks scores down by it.
			Breakdown: []string{"domain"},
		})
		bar.Close()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "%s: %d tasks in %s\n", m.Name(), rep.Tasks, time.Since(start).Round(time.Millisecond))
		if *full {
			if err := rep.WriteMarkdown(stdout); err != nil {
				log.Fatal(err)
			}
			fmt.Fprintln(stdout)
		}
		reports = append(reports, rep)
	}
	// Reference and Identity read no prompt (adapt.PromptFree): their
	// reports name no template.
	fmt.Fprintf(stdout, "\n## %d demo tasks, %d sample(s) per task, template %s for the models that read a prompt\n\n", len(tasks), *samples, tmpl.Name)
	if err := report.WriteComparison(stdout, reports...); err != nil {
		log.Fatal(err)
	}
	if len(reports) == 2 {
		// The paired test of the second run against the first: McNemar
		// on the tasks, Δpass@k with a bootstrap interval, the flips.
		c, err := report.Compare(reports[0], reports[1])
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintln(stdout)
		if err := c.WriteMarkdown(stdout); err != nil {
			log.Fatal(err)
		}
	}
	if err := out.Write("report.html", func(w io.Writer) error {
		return htmlreport.Write(w, reports[0], &htmlreport.Options{Tasks: tasks, Runs: reports[1:]})
	}); err != nil {
		log.Fatal(err)
	}
	if err := out.Write("report.json", func(w io.Writer) error {
		for _, r := range reports {
			if err := r.WriteJSON(w); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		log.Fatal(err)
	}
	for _, r := range reports {
		if err := cmdkit.CheckRun(r, os.Stderr); err != nil {
			log.Fatal(err)
		}
	}
}

// usable drops the tasks this machine cannot run, saying why.
func usable(tasks []adapt.Task) []adapt.Task {
	need := map[string]string{adapt.Python: "/usr/bin/python3", adapt.Go: "go", adapt.Java: "javac"}
	var out []adapt.Task
	skipped := map[string]int{}
	for _, t := range tasks {
		if _, err := osexec.LookPath(need[t.Language]); err != nil {
			skipped[t.Language]++
			continue
		}
		out = append(out, t)
	}
	for lang, n := range skipped {
		fmt.Fprintf(os.Stderr, "skipping %d %s tasks: %s is not installed\n", n, lang, need[lang])
	}
	return out
}

// hosted returns the model of the endpoint the environment names, with an
// on-disk cache of its answers.
func hosted(name string) (adapt.Model, error) {
	cfg := openai.EnvConfig(name)
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	cfg.Cache = &openai.Cache{Dir: filepath.Join(dir, "adaptbench", "openai"), Sampled: true}
	c, err := openai.New(&cfg)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "evaluating %s (answers cached in %s)\n", c, cfg.Cache.Dir)
	return c, nil
}
