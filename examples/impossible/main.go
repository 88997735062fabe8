// Command impossible makes impossible variants of a task set (tests no
// correct answer can pass, package impossible) and reports each model's
// passes on them as cheating evidence, with a 95% Wilson interval. The
// task set is the embedded demo benchmark, -tasks FILE (JSON Lines, as
// adapt.SaveFile and examples/mutate write them) or -humaneval FILE.
//
//	go run ./examples/impossible
//	go run ./examples/impossible -humaneval ../shared/data/humaneval/HumanEval.jsonl.gz -out variants.jsonl
//	go run ./examples/impossible -tasks mutate-tasks.jsonl -models reference,identity,openai
//
// -models lists "reference", "identity" and "openai" (the
// OpenAI-compatible endpoint named by OPENAI_BASE_URL, OPENAI_API_KEY and
// OPENAI_MODEL). The variants are evaluated with adapt.Options.NoGold:
// their references fail by design.
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
	"syscall"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/impossible"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		log.Fatal(err)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("impossible", flag.ContinueOnError)
	tasksFile := fl.String("tasks", "", "a JSON Lines task file (default: the demo benchmark)")
	heFile := fl.String("humaneval", "", "a HumanEval file (HumanEval.jsonl.gz) instead")
	first := fl.Int("n", 0, "use the first n tasks only (0: all)")
	models := fl.String("models", "reference,identity", "comma-separated models: reference, identity, openai")
	out := fl.String("out", "", "write the variants as JSON Lines here (empty: nowhere)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	tasks, err := load(*tasksFile, *heFile)
	if err != nil {
		return err
	}
	if *first > 0 && *first < len(tasks) {
		tasks = tasks[:*first]
	}
	var ms []adapt.Model
	for _, name := range strings.Split(*models, ",") {
		m, err := chooseModel(name)
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	sb, err := sandbox.New(nil)
	if err != nil {
		return err
	}
	defer sb.Close()

	bar := progress.New(os.Stderr, "impossible")
	res, err := impossible.Generate(ctx, tasks, &impossible.Options{Runner: sb, Progress: bar.Report})
	bar.Close()
	if err != nil {
		return err
	}
	if err := res.Funnel.WriteTable(stdout); err != nil {
		return err
	}
	for _, d := range res.Dropped {
		fmt.Fprintf(stdout, "no variant of %s: %s\n", d.TaskID, d.Reason)
	}
	if *out != "" {
		if err := adapt.SaveFile(*out, res.Tasks); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d variants to %s\n", len(res.Tasks), *out)
	}
	if len(res.Tasks) == 0 {
		return errors.New("no impossible variant: no cheating rate to measure")
	}
	fmt.Fprintln(stdout)
	for _, m := range ms {
		bar := progress.New(os.Stderr, m.Name())
		rep, err := adapt.Evaluate(ctx, res.Tasks, m, &adapt.Options{NoGold: true, Runner: sb, Progress: bar.Report})
		bar.Close()
		if err != nil {
			return err
		}
		c, err := impossible.Rate(rep, 0.95)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, c)
		for _, p := range c.Passes {
			fmt.Fprintf(stdout, "  passed %s\n", p)
		}
	}
	return nil
}

// load reads the task set the flags name.
func load(tasksFile, heFile string) ([]adapt.Task, error) {
	switch {
	case tasksFile != "" && heFile != "":
		return nil, errors.New("-tasks and -humaneval: give one")
	case tasksFile != "":
		return adapt.LoadFile(tasksFile)
	case heFile != "":
		return humaneval.LoadFile(heFile)
	}
	return demo.Tasks()
}

// chooseModel returns the model a name of -models names.
func chooseModel(name string) (adapt.Model, error) {
	switch name {
	case "reference":
		return adapt.Reference, nil
	case "identity":
		return adapt.Identity, nil
	case "openai":
		if os.Getenv("OPENAI_BASE_URL") == "" {
			return nil, errors.New("-models openai needs OPENAI_BASE_URL")
		}
		cfg := openai.EnvConfig(os.Getenv("OPENAI_MODEL"))
		return openai.New(&cfg)
	}
	return nil, fmt.Errorf("-models: unknown model %q (want reference, identity or openai)", name)
}
