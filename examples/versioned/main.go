// Versioned evaluates a model on version-conditioned problems with the
// GitChameleon protocols (greedy, self-debug, zero-shot chain of thought)
// and prints the paper's Table 1 layout (hidden and visible success and
// API hit rate, ± the binomial standard error), then the breakdowns by
// library, change category, runtime version and release year, and the
// error classes of the failed solutions.
//
// By default it runs the Go problems (versioned.GoTasks) with the
// reference model: every module version is fetched through the Go module
// proxy into the go command's module cache before the tests, which then
// build with the proxy off and run in the sandbox. That needs only Go and
// the proxy:
//
//	go run ./examples/versioned
//
// On GitChameleon (the published dataset: upstream's repository root or a
// directory with dataset.jsonl, hidden_tests/ and visible_tests/; the
// hidden test files decide where present, under upstream's exit-status
// rule unless -every-test, and the problems without one are counted
// apart), choose where the environments come from: -wheelhouse DIR (venvs built offline from wheels), -prebuilt
// DIR (ready venvs, such as upstream's .dataset_venvs) or -system (the
// machine's python3 and its packages: not faithful, a smoke test):
//
//	go run ./examples/versioned -gitchameleon ../shared/data/gitchameleon -system
//	go run ./examples/versioned -gitchameleon DIR -solutions answers.jsonl -prebuilt .dataset_venvs
//	OPENAI_API_KEY=… go run ./examples/versioned -model openai -openai-model gpt-4.1
//
// With -mine it mines a Go module's release history for
// version-conditioned problems instead (package versioned/mine), writes
// them (tasks.jsonl), the funnel (funnel.md, funnel.json), the changes
// (changes.jsonl) and the dropped candidates (dropped.jsonl) to -out, and
// prints the funnel, the time per stage and, last, "N valid" (-per-api
// bounds the problems per changed API, -seed orders the candidates).
// The environment cache (-cache) is the user's own by default. -tasks
// then evaluates such a file:
//
//	go run ./examples/versioned -mine github.com/google/go-cmp -from v0.4.0 -out /tmp/gocmp
//	go run ./examples/versioned -tasks /tmp/gocmp/tasks.jsonl -model identity
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/openai"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
	"github.com/adaptbench/adaptbench/versioned"
)

// config is the command line.
type config struct {
	gitchameleon, wheelhouse, python, prebuilt string
	system, strict                             bool
	cacheDir                                   string
	modelName, openaiModel, solutions          string
	protocols                                  string
	noVersion                                  bool
	only                                       string
	mineModule, from, to, out                  string
	perAPI                                     int
	seed                                       int64
	tasksFile                                  string
	everyTest                                  bool
}

func main() {
	var c config
	flag.StringVar(&c.gitchameleon, "gitchameleon", "", "directory of the published GitChameleon dataset (dataset.jsonl); empty means the Go problems")
	flag.StringVar(&c.wheelhouse, "wheelhouse", "", "GitChameleon: build venvs offline from the wheels in this directory")
	flag.StringVar(&c.python, "python", "/usr/bin/python3", "GitChameleon, -wheelhouse: the base interpreter of the venvs")
	flag.StringVar(&c.prebuilt, "prebuilt", "", "GitChameleon: use the ready venvs under this directory")
	flag.BoolVar(&c.system, "system", false, "GitChameleon: use the system python3 as it is (not faithful)")
	flag.BoolVar(&c.strict, "strict", false, "refuse environments that do not match their spec (their tasks are invalid)")
	flag.StringVar(&c.cacheDir, "cache", versioned.DefaultCacheDir(), "directory of the environment cache (each user's own by default)")
	flag.StringVar(&c.modelName, "model", "reference", "model: reference, identity or openai")
	flag.StringVar(&c.openaiModel, "openai-model", "", "with -model openai: the model to ask at OPENAI_BASE_URL (default $OPENAI_MODEL)")
	flag.StringVar(&c.solutions, "solutions", "", "score a solution file ({example_id, answer} per line) as the model")
	flag.StringVar(&c.protocols, "protocols", "greedy,self-debug,cot", "comma-separated protocols: greedy, self-debug, cot")
	flag.BoolVar(&c.noVersion, "no-version", false, "prompt with the library's name only (the paper's ablation)")
	flag.StringVar(&c.only, "only", "", "evaluate only the tasks whose ID matches this regular expression")
	flag.StringVar(&c.mineModule, "mine", "", "mine this Go module's releases for problems (see -from, -to, -out)")
	flag.StringVar(&c.from, "from", "", "-mine: the first release to mine (inclusive)")
	flag.StringVar(&c.to, "to", "", "-mine: the last release to mine (inclusive)")
	flag.IntVar(&c.perAPI, "per-api", 3, "-mine: at most this many problems per changed API and release")
	flag.Int64Var(&c.seed, "seed", 0, "-mine: the seed of the order in which each API's candidates are tried")
	flag.StringVar(&c.out, "out", "", "-mine: the directory to write the problems and the funnel to, created if need be (default: a new directory mine-N)")
	flag.StringVar(&c.tasksFile, "tasks", "", "evaluate the Go tasks of this file (such as -mine's tasks.jsonl) instead of the built-in ones")
	flag.BoolVar(&c.everyTest, "every-test", false, "GitChameleon: adapt's every-test rule (a skipped hidden test does not pass) instead of upstream's exit-status rule")
	flag.Parse()
	log.SetFlags(0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	err := writableCache(c.cacheDir)
	if err == nil && c.mineModule != "" {
		err = mineHistory(ctx, &c)
	} else if err == nil {
		err = run(ctx, &c)
	}
	if err != nil {
		log.Fatal(cacheHint(err, c.cacheDir))
	}
}

// writableCache checks, before anything runs, that the environment cache
// can be written: one another user made is not.
func writableCache(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".writable-")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// cacheHint names the -cache flag in a permission error.
func cacheHint(err error, dir string) error {
	if errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "permission denied") {
		return fmt.Errorf("%w\nversioned: the environment cache %s is not writable by this user: choose another directory with -cache DIR", err, dir)
	}
	return err
}

// run evaluates the tasks with each protocol and prints the tables.
func run(ctx context.Context, c *config) error {
	tasks, builder, err := selectTasks(c)
	if err != nil {
		return err
	}
	model, err := pickModel(c.modelName, c.openaiModel, c.solutions)
	if err != nil {
		return err
	}
	var protocols []*versioned.Protocol
	for _, name := range strings.Split(c.protocols, ",") {
		p, err := protocolByName(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		protocols = append(protocols, p)
	}

	fs, err := sandbox.NewPythonRunner(nil)
	if err != nil {
		return err
	}
	defer fs.Close()
	cache := &versioned.Cache{Dir: filepath.Join(c.cacheDir, builderDir(builder)), Builder: builder}
	provision(ctx, cache, tasks)
	opts := &versioned.EvalOptions{
		Evaluate: adapt.Options{
			Runner:       fs,
			Environments: &versioned.Provider{Provisioner: cache, Strict: c.strict, Env: []string{"OMP_NUM_THREADS=1", "MPLBACKEND=Agg"}},
		},
		NoVersion: c.noVersion,
	}
	if c.everyTest {
		rule := adapt.PassEveryTest
		opts.PassRule = &rule
	}
	row, last, err := evaluate(ctx, tasks, model, protocols, opts)
	if err != nil {
		return err
	}
	fmt.Printf("%d tasks, %d environments built this run\n\n", len(tasks), cache.Builds())
	if err := printTables(row, last); err != nil {
		return err
	}
	// A check the harness could not make is no verdict: the command says
	// so, after the tables, and exits non-zero.
	for _, sc := range []*versioned.Scores{row.Greedy, row.SelfDebug, row.CoT} {
		if sc != nil && sc.Report != nil {
			if err := cmdkit.CheckRun(sc.Report, os.Stderr); err != nil {
				return fmt.Errorf("%s: %w", sc.Protocol, err)
			}
		}
	}
	return nil
}

// selectTasks loads the tasks the flags name, and the builder of their
// environments.
func selectTasks(c *config) ([]adapt.Task, versioned.Builder, error) {
	tasks, builder, err := load(c.gitchameleon, c.wheelhouse, c.python, c.prebuilt, c.system)
	if err != nil {
		return nil, nil, err
	}
	if c.tasksFile != "" {
		if c.gitchameleon != "" {
			return nil, nil, errors.New("versioned: -tasks and -gitchameleon exclude each other")
		}
		if tasks, err = adapt.LoadFile(c.tasksFile); err != nil {
			return nil, nil, err
		}
	}
	if c.only != "" {
		re, err := regexp.Compile(c.only)
		if err != nil {
			return nil, nil, err
		}
		var kept []adapt.Task
		for _, t := range tasks {
			if re.MatchString(t.ID) {
				kept = append(kept, t)
			}
		}
		tasks = kept
	}
	return tasks, builder, nil
}

// provision builds the environments first, with their own progress:
// building them is the long part of a first run.
func provision(ctx context.Context, cache *versioned.Cache, tasks []adapt.Task) {
	var specs []versioned.EnvSpec
	for i := range tasks {
		if tasks[i].Env != nil {
			specs = append(specs, versioned.SpecOf(*tasks[i].Env))
		}
	}
	if len(specs) == 0 {
		return
	}
	bar := progress.New(os.Stderr, "versioned")
	cache.Progress = bar.Report
	_, errs := cache.ProvisionAll(ctx, specs)
	bar.Close()
	cache.Progress = nil
	failed := 0
	for _, err := range errs {
		if err != nil {
			failed++
		}
	}
	if failed > 0 {
		log.Printf("%d of %d environments could not be provisioned: their tasks are reported invalid, with the reason", failed, len(specs))
	}
}

// evaluate runs each protocol and returns the model's row of Table 1 and
// the scores of the last protocol.
func evaluate(ctx context.Context, tasks []adapt.Task, model adapt.Model, protocols []*versioned.Protocol, opts *versioned.EvalOptions) (versioned.TableRow, *versioned.Scores, error) {
	row := versioned.TableRow{Model: model.Name()}
	var last *versioned.Scores
	for _, p := range protocols {
		log.Printf("%s: %d tasks, protocol %s ...", model.Name(), len(tasks), p.Name)
		bar := progress.New(os.Stderr, model.Name()+" "+p.Name)
		opts.Protocol = p
		opts.Evaluate.Progress = bar.Report
		res, err := versioned.Evaluate(ctx, tasks, model, opts)
		bar.Close()
		if err != nil {
			return row, nil, err
		}
		log.Print(res)
		for _, t := range res.Tasks {
			switch {
			case t.Unscored != "":
				log.Printf("  unscored %s: %s", t.Task, firstLine(t.Unscored))
			case !t.Valid:
				log.Printf("  invalid %s: %s", t.Task, firstLine(t.Invalid))
			}
		}
		switch p {
		case versioned.Greedy:
			row.Greedy = res
		case versioned.SelfDebug:
			row.SelfDebug = res
		case versioned.CoT:
			row.CoT = res
		}
		last = res
	}
	return row, last, nil
}

// printTables prints Table 1, then the breakdowns and the error classes
// of the last protocol.
func printTables(row versioned.TableRow, last *versioned.Scores) error {
	if err := (versioned.Table{row}).WriteTable(os.Stdout); err != nil {
		return err
	}
	if last == nil {
		return nil
	}
	fmt.Printf("\nBreakdowns (%s):\n\n", last.Protocol)
	if err := last.WriteBreakdowns(os.Stdout); err != nil {
		return err
	}
	if classes := last.ErrorClasses(); len(classes) > 0 {
		fmt.Printf("\nErrors of the failed solutions (%s):\n\n| error | count |\n|---|---|\n", last.Protocol)
		for _, c := range classes {
			fmt.Printf("| %s | %d |\n", c.Class, c.Count)
		}
	}
	return nil
}

// load returns the tasks and the builder of their environments.
func load(dir, wheelhouse, python, prebuilt string, system bool) ([]adapt.Task, versioned.Builder, error) {
	if dir == "" {
		if wheelhouse != "" || prebuilt != "" || system {
			return nil, nil, fmt.Errorf("versioned: -wheelhouse, -prebuilt and -system are for -gitchameleon; the Go problems fetch modules through the Go module proxy")
		}
		tasks, err := versioned.GoTasks()
		return tasks, &versioned.GoModules{}, err
	}
	tasks, rep, err := versioned.LoadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	log.Print(rep)
	n := 0
	for _, set := range []bool{wheelhouse != "", prebuilt != "", system} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, nil, fmt.Errorf("versioned: GitChameleon needs exactly one of -wheelhouse DIR, -prebuilt DIR or -system")
	}
	switch {
	case wheelhouse != "":
		return tasks, &versioned.Venv{Python: python, Wheelhouse: wheelhouse}, nil
	case prebuilt != "":
		return tasks, &versioned.Prebuilt{Dir: prebuilt}, nil
	}
	return tasks, &versioned.System{}, nil
}

// builderDir keeps each builder's environments apart in the cache.
func builderDir(b versioned.Builder) string {
	switch b.(type) {
	case *versioned.GoModules:
		return "gomod"
	case *versioned.Venv:
		return "venv"
	case *versioned.Prebuilt:
		return "prebuilt"
	}
	return "system"
}

func pickModel(name, openaiModel, solutions string) (adapt.Model, error) {
	if solutions != "" {
		return versioned.SolutionModel(solutions)
	}
	switch name {
	case "reference":
		return adapt.Reference, nil
	case "identity":
		return adapt.Identity, nil
	case "openai":
		cfg := openai.EnvConfig(openaiModel)
		return openai.New(&cfg)
	}
	return nil, fmt.Errorf("versioned: unknown model %q (want reference, identity or openai)", name)
}

func protocolByName(name string) (*versioned.Protocol, error) {
	var names []string
	for _, p := range versioned.Protocols {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return nil, fmt.Errorf("versioned: unknown protocol %q (want one of %s)", name, strings.Join(names, ", "))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
