// Package adapteval loads AdaptEval, the benchmark of real code-snippet
// adaptations (Stack Overflow → GitHub) that package adapt is named after,
// from a checkout of its public repository (github.com/ztwater/AdaptEval),
// and reproduces its prompt settings and its two-tier scoring.
//
// AdaptEval has 164 Python tasks from 154 repositories, with 523 annotated
// adaptations in 3 categories and 38 types ([Categories], [Types]); each
// task has a hand-written unittest class whose tests are either tied to an
// adaptation (adaptation-level) or not (function-level).
//
//	tasks, lrep, err := adapteval.LoadDir("AdaptEval")
//	// or pinned: tasks, lrep, err := adapteval.LoadRevision(ctx, "AdaptEval.git", "<commit>", ".")
//	opts := adapteval.Options(adapteval.AReqOracle, 5) // n=5, T=0.2, 5 s per run
//	opts.Journal = "run.jsonl"
//	rep, err := adapt.Evaluate(ctx, tasks, model, opts)
//	scores, err := adapteval.Score(rep, tasks)
//	scores.WriteTables(os.Stdout) // Tables IV, V and VI of the paper
//
// # Layout
//
// [Load] reads the repository as it is published, from any fs.FS;
// [LoadDir] from a checkout on disk, and [LoadRevision] from a commit of
// the git repository itself (a clone, a bare mirror or its URL), without
// a checkout, recording the repository and the commit's hash in every
// task's provenance (adapt.Provenance.Repo and Commit; Source is the
// task's directory in the repository). Its layout: metadata.json at the root
// (154 repositories → source files → linked methods, one task each → their
// annotated adaptations), and for each task, under
// benchmark/<repo id>/dataset_items/, the snippet (so_clone), the
// ground-truth context file (<file_name>), the unittest module
// (test_<file stem>_<method>.py, class Test<Method in CamelCase>) and
// adaptation_task_for_<method>/task_description.txt. Tasks are named as the
// artifact's namespace, "<repo id>.<file stem>.<method>". The context file
// becomes the task's Target at the path the test module imports it from:
// "<file_name>", or "ctx_<file_name>" when the test imports ctx_<stem> (24
// tasks do, such as those whose file is named logging.py). Every test
// method of the class is a test of the task, named
// "<module>.<Class>.<method>" as the unittest driver reports it; a test
// listed in an adaptation's associated_tests checks that adaptation, and
// the others are function-level. [ReadMetadata] reads metadata.json alone,
// with the descriptions of task_descriptions.jsonl when that digest is
// there (adaptbench's shared data has no snippets, tests or context files).
//
// The git repository lacks the full GitHub projects and their per-repository
// requirements (they are in a Drive tarball): about 40% of the tasks import
// third-party or repository-local modules that a plain Python does not
// have. Such a task loads, and the gold check of adapt.Evaluate reports it
// invalid, with the missing module in the reason, instead of counting it
// as a model failure.
//
// # Irregularities
//
// The published data has adaptation ids that repeat (repo 181) or skip
// numbers (374, 819, 1231) and adaptations without an associated test
// (373, 786). The loader keys adaptations by position and gives each a
// unique step ID ("6", then "6#2"), keeps skipped ids, and scores an
// adaptation without tests as the artifact does (see Scores). Everything it
// tolerates (also: missing files, an unknown test name, a test module that
// imports the context module by neither name) is listed in the
// [LoadReport], with what it did; a task whose files are missing is left
// out, never a crash.
//
// # Prompts
//
// The five settings of the paper are [Settings]: AReq (the adaptation list)
// and TReq (the task sentence), each with the Oracle context or without
// (NoCtx), and NoReq (the target file around the function, no
// requirement). [Setting.Messages] builds byte for byte what the artifact's
// prompt loader (PromptLoader, evaluation/src/prompt_loader.py) builds,
// system message included: the snippet and description verbatim, the
// adaptation list as Python's repr, the Oracle blocks as
// "[Start of NAME]…[End of NAME]". The Oracle context ([Oracle]) is built as
// the artifact builds it from the GitHub file: class header, class-level
// assignments and __init__ for in-class fields, module-level assignments,
// function sources, and the module-level imports of the external packages
// in an "Imports" block, as ast.unparse writes them. Without the tarball it
// is built from the ground-truth context file, which has the imports and
// the function, so a few blocks differ from the artifact's (reported once
// as IssueOracleSource); NoReq shows the context file in the same way.
// NoReq cuts the text above the function to its last 8192 cl100k_base
// tokens and the text from the marker down to its first 8192, as the
// artifact does (tiktoken-go with its embedded BPE ranks, loaded on first
// use). A known difference from the artifact: the example prompts stored
// with it show only the category in the type field (Setting.CategoryOnly)
// and other header wording; the paper does not say which variant produced
// its numbers.
//
// # Pipeline
//
// Each sample goes through adapt.Evaluate: the target function is taken out
// of the completion by name with tree-sitter (adapt.Extract), which does
// better than the artifact's line scanner: it accepts fenced and unfenced
// answers, keeps decorators, and when the answer defines the snippet's
// function under its old name instead of the target it says so, as the
// outcome adapt.OutcomeWrongName (the artifact extracts nothing and counts
// an import error). The function is spliced into the context file
// (adapt.Splice; the file's own decorators stay when the answer has none),
// and the task's unittest class runs in the sandbox, one fresh process per
// sample, with the artifact's limit of 5 seconds for the run, import
// included ([Limits], [Options]). Every test's status and error type
// (adapt.TestOutcome.ErrorType: the exception class, such as
// AssertionError or TypeError) is kept; a module that does not import is
// the outcome adapt.OutcomeCompileError, and a run over the limit
// adapt.OutcomeTimeout.
//
// # Scores
//
// [Score] computes the paper's tables from an adapt.Report:
//
//   - pass@1-t and pass@5-t (Table IV): a sample solves a task when every
//     test of the class passes; the unbiased estimator, averaged over the
//     valid tasks.
//   - pass@1-a (Table V): a sample solves an adaptation when all of that
//     adaptation's tests pass, averaged over the adaptations of valid
//     tasks. This is exact. The artifact approximates it with c = n − the
//     largest number of samples failing any one of the adaptation's tests,
//     which overcounts when different samples fail different tests of the
//     same adaptation (16 adaptations have more than one test); Row has
//     both. An adaptation without tests counts as solved under both rules
//     (the artifact's 1.0; "all its tests pass" holds vacuously), so that
//     the counts are the paper's.
//   - Table V cells are sums of pass@1-a per type (the expected number
//     solved), then per category with its percentage, then overall.
//   - Table VI counts errors in the unit of the artifact's tally: one
//     CompilationError per sample that did not import (or had no code, or
//     kept the old name), one TimeoutError per sample over the limit, and
//     one count per failing test of a sample that ran, by error type.
//
// Invalid tasks are left out of every score, as in adapt.Report; Scores
// says how many tasks were valid. So Table V here is over the adaptations
// of the valid tasks (Scores.Adaptations), where the paper's is over all
// 523 of the 164 tasks (Scores.AllAdaptations on the whole benchmark);
// WriteTables prints both denominators.
//
// # Leakage probe
//
// The paper checks data leakage by renaming the identifiers of each
// snippet and adapting it again (§VI-A, Table IX). [Obfuscate] renames the
// parameters and locals of the snippet's functions to var_0, var_1, … with
// a map back; [ObfuscatedTasks] makes a variant of every task with its
// snippet obfuscated (ID suffix [ObfuscatedSuffix], provenance
// "adapteval-obfuscate"); evaluate the variants with [Probe.Model], which
// maps each answer's names back before it is tested, and compare with
// [Delta] (pass@1-t and pass@1-a, obfuscated − original, with a paired
// bootstrap interval).
//
// The Leak Ratio of Table IX comes from CDD (Dong et al. 2024,
// "Generalization or Memorization"), which the paper applies by checking
// "whether the sampled outputs … are highly similar to the possibly leaked
// data"; the repository has no code for it. [CDD] measures, for each task
// of a run, the edit distance in cl100k_base tokens of each sample's
// answer (the extracted function) to the task's ground truth, and flags
// the task when more than a share ξ of its samples are within α·l of it
// (l the longest length; metrics.Peakedness). The Leak Ratio is the share
// of the tasks measured that are flagged: the paper's 1.22% is 2 of 164.
// The paper states neither its parameters, its samples nor its tokenizer;
// the defaults here are CDD's own ([CDDPaper]: α = 0.05, ξ = 0.01, the
// first 100 tokens of each text, as the authors' code), with the setting
// CDD's authors used on ChatGPT ([CDDRealWorld]: α = 0, ξ = 0.2) beside
// them; the samples are the run's (five at temperature 0.2 in the paper's
// protocol, where CDD samples 50 at 0.8). With n = 5 and ξ = 0.01 one near
// copy among the five flags a task. CDD proper compares the samples with
// the greedy output, not with the ground truth: [CDDOptions].Greedy takes
// the reference from a greedy run instead. Evaluate draws no sample for
// an invalid task, so a run without the full environments measures fewer
// than 164 tasks (CDDReport says how many); adapt.Draw samples every task
// without testing any, and CDD takes the function out of its answers.
//
// # Stability
//
// The tables (WriteTables) and the load report's text are for people and
// may change; the JSON forms follow the structs. IssueKind values are
// stable.
package adapteval
