package report

import (
	"time"

	"github.com/adaptbench/adaptbench/exec"
)

// Progress reports how far an evaluation is.
type Progress struct {
	Phase string // "resume", "reference" or "samples"
	// Done counts the checks finished, Passed those that passed; both
	// include the Resumed checks the journal already held.
	Done   int
	Total  int // checks in all
	Passed int
	// PassedAs says what Passed counts when it is not checks that passed
	// (a generator's "valid" candidates); "" means "passed".
	PassedAs string
	Resumed  int
	// ModelErrors counts the samples the model failed (after Attempts),
	// which end without a check; they are in Done too.
	ModelErrors int
	// Notice, when set, tells the caller something about the run itself
	// (a torn journal line that was cut off).
	Notice  string
	Elapsed time.Duration // since Evaluate started
	Rate    float64       // checks per second in this run
	ETA     time.Duration // estimated time left
	// TestTime is the time spent running tests (building and running them
	// through the test drivers), summed over the checks of this run; the
	// rest of Elapsed is the harness's own work and waiting for the model.
	TestTime time.Duration
}

// RunInfo describes an evaluation in its report and journal header.
type RunInfo struct {
	// Name labels the run (Options.Name; the model's name by default).
	// It is left out of the journal's fingerprint.
	Name  string `json:"name,omitempty"`
	Model string `json:"model"`
	// Template names the prompt template; "" when the model reads no
	// prompt (PromptFree).
	Template string   `json:"template"`
	Samples  int      `json:"samples"`
	Sampling Sampling `json:"sampling"`
	K        []int    `json:"k"`
	Gold     bool     `json:"gold"`
	// Repair names the repair rounds, "<name>x<rounds>"; "" for none.
	Repair string `json:"repair,omitempty"`
	// Draw marks a run of Draw: completions only, no checks.
	Draw bool `json:"draw,omitempty"`
	// TaskCount and TaskSet identify the task set (all shards' tasks): its
	// size and a digest of every task's ID and content.
	TaskCount int    `json:"task_count"`
	TaskSet   string `json:"task_set"`
	// TaskSamples holds the sample count of each task (of the whole task
	// set) that has other than Samples: a model that is a SampleCounter
	// holds fewer answers for it. nil when every task has Samples.
	TaskSamples map[string]int `json:"task_samples,omitempty"`
	// ModelIdentity is what an Identifier model says it is beyond its
	// name; "" for any other model.
	ModelIdentity string `json:"model_identity,omitempty"`
	// Prompts is a digest of the prompts of the whole task set as the
	// template renders them, so that a template edited under the same
	// name is told apart; "" when the model reads no prompt.
	Prompts string `json:"prompts,omitempty"`
	// Runner is the kind (Go type) of the runner the checks ran in, and
	// Limits the limits they ran under, exec's defaults filled in; "" and
	// nil for a Draw.
	Runner string       `json:"runner,omitempty"`
	Limits *exec.Limits `json:"limits,omitempty"`
	// Isolation is Options.Isolation ("auto", "required"); "" when Python
	// answers ran in the tests' process. A journal resumes only under the
	// same.
	Isolation string `json:"isolation,omitempty"`
	// Manifest says what the checks ran on (isolation, kernel,
	// toolchains); nil for a Draw, and in a report whose records came
	// from several machines (Report.Machines lists them). It is left out
	// of the fingerprint.
	Manifest *Manifest `json:"manifest,omitempty"`
}
