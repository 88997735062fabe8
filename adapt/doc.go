// Package adapt is the core of adaptbench: the task model, the Model
// interface, prompts, answer extraction and splicing, and Evaluate, which
// asks a model to adapt code and checks every answer in a sandbox.
//
// # Tasks
//
// A [Task] is code to adapt ([Task].Code), the place it must fit into
// ([Target]: a file and the function in it that the answer replaces, plus
// the other workspace [File]s), what the adaptation must achieve
// ([Requirement]: a task-level sentence and ordered adaptation-level
// [Step]s, or nothing), a reference answer, and the [Test]s that decide, each
// tied to the steps it checks (none: a function-level test). Tasks are
// language-neutral (Python, Go, Java). The native format is JSON Lines with a
// schema version ([WriteTasks], [ReadTasks], [LoadFile]); [LoadDir] reads a
// directory per task, the easy format to write by hand.
//
// # Models
//
// A [Model] takes chat messages and [Sampling] settings and returns
// [Completion]s with token usage. [Reference] answers with the task's
// reference (the gold check), [Identity] with the unadapted code (the
// do-nothing baseline), and [Replay] with recorded completions. The
// OpenAI-compatible client lives in a subpackage, so that importing adapt
// pulls in no HTTP client.
//
// # Evaluate
//
//	tasks, err := adapt.LoadFile("tasks.jsonl")
//	rep, err := adapt.Evaluate(ctx, tasks, model, &adapt.Options{
//		Samples:  5,
//		Sampling: adapt.Sampling{Temperature: 0.2},
//		Template: adapt.AdaptationLevel,
//		Journal:  "run.jsonl",
//	})
//	rep.WriteMarkdown(os.Stdout)
//
// For each task, [Evaluate] first runs the reference (gold first: a task
// whose reference fails is reported invalid and left out of the scores),
// then draws the samples, extracts the target function from each completion
// with tree-sitter ([Extract]; a completion that defines the snippet's
// function under its old name instead is [OutcomeWrongName]), splices it
// into the target file ([Splice]) and runs the task's tests in the sandbox,
// keeping each test's status and error type ([TestOutcome]). Model requests and test runs
// overlap, each with its own bound. Every completion and result is appended
// to the journal as it finishes; running again with the same journal does no
// finished work twice. [Shard] splits the tasks among processes and [Merge]
// joins their journals into the report a single run gives.
//
// # Reports
//
// A [Report] holds task-level pass@k (a sample passes when every test
// passes), adaptation-level pass@k (a sample passes a step when all the
// step's tests pass), breakdowns by adaptation category and type and by task
// label, invalid tasks with reasons, counts of each [Outcome], and token
// usage. It holds no timings: the same inputs give the same report, byte for
// byte. The Markdown and CSV forms are for people and may change.
package adapt
