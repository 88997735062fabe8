// Command mutate generates instruction-free adaptation tasks from a Go
// module or a Maven project (built offline from Debian's repository) by
// mutation injection, prints the validity funnel and the pilot
// gates, and writes the tasks as JSON Lines. With -evaluate it runs them
// through adapt.Evaluate with a model and reports, per operator, the test
// verdicts beside the inspection of which mutations the model reversed.
//
//	go run ./examples/mutate -dir $(go env GOMODCACHE)/github.com/google/uuid@v1.6.0 -fragments 10 -out tasks.jsonl
//	go run ./examples/mutate -dir ... -evaluate -model reference
//	go run ./examples/mutate -dir mutate/testdata/maven -evaluate
//
// -model is "reference", "identity" or "openai" (the OpenAI-compatible
// endpoint named by OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL).
// A model's snippet answers go through mutate.Answer (adapt.Options.Answer),
// which splices them into the enclosing function that adapt.Evaluate tests.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/mutate"
)

func main() {
	dir := flag.String("dir", "", "root of a Go module whose root package has tests, or of a Maven project (pom.xml)")
	out := flag.String("out", "mutate-tasks.jsonl", "where to write the tasks")
	seed := flag.Uint64("seed", 1, "seed of every random choice")
	frags := flag.Int("fragments", 10, "fragments to sample (0: all)")
	levels := flag.Int("levels", 2, "generate levels L1 to L<levels> (1-4)")
	evaluate := flag.Bool("evaluate", false, "evaluate the tasks with -model")
	model := flag.String("model", "reference", "reference, identity or openai")
	flag.Parse()
	if *dir == "" {
		flag.Usage()
		os.Exit(2)
	}
	ctx := context.Background()
	sb, err := exec.NewSandbox(nil)
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	var proj mutate.Project
	if _, statErr := os.Stat(filepath.Join(*dir, "pom.xml")); statErr == nil {
		proj, err = mutate.OpenMaven(ctx, *dir, sb, nil)
	} else {
		proj, err = mutate.OpenGoModule(*dir, sb, nil)
	}
	if err != nil {
		log.Fatal(err) // a directory with neither pom.xml nor go.mod says so here
	}
	defer proj.Close()

	cfg := &mutate.Options{Seed: *seed, Fragments: *frags}
	for l := mutate.L1; l <= mutate.Level(min(max(*levels, 1), 4)); l++ {
		cfg.Levels = append(cfg.Levels, l)
	}
	res, err := mutate.Generate(ctx, proj, cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d tests (%d stable, flaky %v); %d fragments, %d covered, %d sampled\n\n",
		len(res.Tests), len(res.Stable), res.Flaky, res.Fragments, res.Covered, res.Sampled)
	if err := res.Funnel.WriteTable(os.Stdout); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\n%s\n", res.Gates())
	tasks := res.Tasks
	if err := adapt.SaveFile(*out, tasks); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %d tasks to %s\n", len(tasks), *out)
	if !*evaluate {
		return
	}

	var m adapt.Model
	switch *model {
	case "reference":
		m = adapt.Reference
	case "identity":
		m = adapt.Identity
	case "openai":
		if os.Getenv("OPENAI_BASE_URL") == "" {
			log.Fatal("-model openai needs OPENAI_BASE_URL")
		}
		c, err := openai.FromEnv(os.Getenv("OPENAI_MODEL"))
		if err != nil {
			log.Fatal(err)
		}
		m = c
	default:
		log.Fatalf("unknown model %q", *model)
	}
	rep, err := adapt.Evaluate(ctx, tasks, m, &adapt.Options{Template: mutate.Prompt, Runner: sb, Answer: mutate.Answer})
	if err != nil {
		log.Fatal(err)
	}
	// Per operator: samples, passed, and the inspection classes.
	type row struct{ n, passed, restored, alternative, reversed, mutations int }
	rows := map[string]*row{}
	byID := map[string]*adapt.Task{}
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	for _, tr := range rep.PerTask {
		t := byID[tr.Task]
		for _, s := range tr.Samples {
			passed := s.Outcome == adapt.OutcomePassed
			in := mutate.Inspection{}
			if s.Code != "" {
				// The function that was tested, the snippet spliced in.
				if in, err = mutate.Inspect(t, strings.TrimRight(s.Code, "\n")); err != nil {
					log.Fatal(err)
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
		fmt.Printf("\nmodel %s: pass@1 %.3f over %d of %d valid tasks\n", m.Name(), p1, rep.PassAtK[0].Tasks, rep.Valid)
	} else {
		fmt.Printf("\nmodel %s: no pass@1 (%d valid tasks, %d unscored)\n", m.Name(), rep.Valid, len(rep.Unscored))
	}
	fmt.Printf("%-40s %7s %7s %9s %12s %9s\n", "operators", "samples", "passed", "restored", "alternative", "reversed")
	for _, k := range keys {
		r := rows[k]
		fmt.Printf("%-40s %7d %7d %9d %12d %5d/%-3d\n", k, r.n, r.passed, r.restored, r.alternative, r.reversed, r.mutations)
	}
}
