package adapteval_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
)

func ExampleLoad() {
	tasks, rep, err := adapteval.Load(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tasks {
		fmt.Printf("%s: %s, %d steps, %d tests\n", t.ID, t.Target.Path, len(t.Requirement.Steps), len(t.Tests))
	}
	fmt.Println("left out:", rep.Skipped())
	kinds := map[string]int{}
	for _, is := range rep.Issues {
		kinds[is.Kind]++
	}
	fmt.Println("repeated ids:", kinds["duplicate-adaptation-id"], "untested:", kinds["adaptation-without-test"])
	// Output:
	// 101.strutil.slugify: strutil.py, 4 steps, 7 tests
	// 102.logging.record: ctx_logging.py, 4 steps, 5 tests
	// 103.stats.moving_average: stats.py, 3 steps, 4 tests
	// 103.stats.clamp: stats.py, 3 steps, 4 tests
	// 104.fetch.fetch_json: fetch.py, 2 steps, 3 tests
	// left out: [105.gone.vanish]
	// repeated ids: 1 untested: 1
}

func ExampleScore() {
	tasks, _, err := adapteval.Load(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	setting, err := adapteval.SettingByName("areq-oracle")
	if err != nil {
		log.Fatal(err)
	}
	// The paper's protocol (one sample here), and the do-nothing baseline.
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Identity, adapteval.Options(setting, 1))
	if err != nil {
		log.Fatal(err)
	}
	s, err := adapteval.Score(rep, tasks)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("valid %d of %d; pass@1-t %.2f; pass@1-a %.4f\n", s.Valid, s.Tasks, s.TaskPassAtK[0].Value, s.AdaptPassAt1)
	for _, e := range s.Errors {
		fmt.Println(e.Type, e.Count)
	}
	// Output:
	// valid 4 of 5; pass@1-t 0.00; pass@1-a 0.0714
	// AssertionError 5
	// CompilationError 2
	// TypeError 1
}

// CDD measures the model's answers, not test runs: adapt.Draw samples
// every task, the invalid one too, without a sandbox. The reference model
// answers with the ground truth itself, the extreme of a leak.
func ExampleCDD() {
	tasks, _, err := adapteval.Load(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	setting, err := adapteval.SettingByName("areq-oracle")
	if err != nil {
		log.Fatal(err)
	}
	rep, err := adapt.Draw(context.Background(), tasks, adapt.Reference, adapteval.Options(setting, 3))
	if err != nil {
		log.Fatal(err)
	}
	cdd, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cdd)
	for _, t := range cdd.PerTask {
		fmt.Println(t.Task, t.Distances, t.MaxLen, t.Flagged)
	}
	// Output:
	// CDD Leak Ratio 100.00% = 5/5 tasks flagged (α=0.05, ξ=0.01, first 100 cl100k_base tokens, against the ground truth)
	// 101.strutil.slugify [0 0 0] 66 true
	// 102.logging.record [0 0 0] 65 true
	// 103.stats.moving_average [0 0 0] 56 true
	// 103.stats.clamp [0 0 0] 26 true
	// 104.fetch.fetch_json [0 0 0] 29 true
}
