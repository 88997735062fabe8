// Package adapteval loads AdaptEval, the benchmark of real code-snippet
// adaptations (Stack Overflow → GitHub) that package adapt is named after,
// from a checkout of its public repository (github.com/ztwater/AdaptEval),
// and reproduces its prompt settings and its two-tier scoring.
//
// AdaptEval has 164 Python tasks from 154 repositories, with 523 annotated
// adaptations in 3 categories and 38 types; each task has a hand-written
// unittest class whose tests are either tied to an adaptation
// (adaptation-level) or not (function-level).
//
//	tasks, lrep, err := adapteval.LoadDir("AdaptEval")
//	// or pinned: tasks, lrep, err := adapteval.LoadRevision(ctx, "AdaptEval.git", "<commit>", ".")
//	setting, err := adapteval.SettingByName("areq-oracle")
//	opts := adapteval.Options(setting, 5) // n=5, T=0.2, 5 s per run
//	opts.Journal = "run.jsonl"
//	rep, err := adapt.Evaluate(ctx, tasks, model, opts)
//	scores, err := adapteval.Score(rep, tasks)
//	scores.WriteTables(os.Stdout) // Tables IV, V and VI of the paper
//
// # Layout
//
// [Load] reads the repository as it is published, from any fs.FS;
// [LoadDir] from a checkout on disk, and [LoadRevision] from a commit of
// the git repository (a clone, a bare mirror or its URL), recording the
// repository and the commit's hash in every task's provenance. Its
// layout: metadata.json at the root (repositories → source files → linked
// methods, one task each → their annotated adaptations), and for each
// task, under
// benchmark/<repo id>/dataset_items/, the snippet (so_clone), the
// ground-truth context file (<file_name>), the unittest module
// (test_<file stem>_<method>.py, class Test<Method in CamelCase>) and
// adaptation_task_for_<method>/task_description.txt. Tasks are named as the
// artifact's namespace, "<repo id>.<file stem>.<method>". The context file
// becomes the task's Target at the path the test module imports it from:
// "<file_name>", or "ctx_<file_name>" when the test imports ctx_<stem> (24
// tasks do). Every test method of the class is a test of the task, named
// "<module>.<Class>.<method>" as the unittest driver reports it; a test
// listed in an adaptation's associated_tests checks that adaptation, and
// the others are function-level.
//
// The git repository lacks the GitHub projects and their requirements
// (they are in a Drive tarball): about 40% of the tasks import modules a
// plain Python does not have. Such a task loads, and the gold check of
// adapt.Evaluate reports it invalid, with the missing module in the
// reason, instead of counting it as a model failure.
//
// # Irregularities
//
// The published data has adaptation ids that repeat (repo 181) or skip
// numbers (374, 819, 1231) and adaptations without an associated test
// (373, 786). The loader keys adaptations by position and gives each a
// unique step ID ("6", then "6#2") and keeps skipped ids. Everything it
// tolerates (also: missing files, an unknown test name) is listed in the
// [LoadReport], with what it did; a task whose files are missing is left
// out, never a crash.
//
// # Prompts
//
// The five settings of the paper are [Settings]: AReq (the adaptation list)
// and TReq (the task sentence), each with the Oracle context or without
// (NoCtx), and NoReq (the target file around the function, no
// requirement). A setting's [Setting.Template] renders byte for byte what
// the artifact's PromptLoader (evaluation/src/prompt_loader.py) builds,
// system message included. The Oracle context is built as the
// artifact builds it from the GitHub file (class header, class-level
// assignments and __init__ for in-class fields, module-level assignments,
// function sources, and the imports of the external packages in an
// "Imports" block, as ast.unparse writes them); without the Drive tarball
// it is built from the ground-truth context file, so a few blocks differ
// (reported once in the LoadReport). NoReq cuts the text above the
// function to its last 8192 cl100k_base tokens and the text below to its
// first 8192, as the artifact does. The artifact's stored example prompts
// show only the category in the type field ([Setting].CategoryOnly); the
// paper does not say which variant produced its numbers.
//
// # Pipeline
//
// Each sample goes through adapt.Evaluate with [Options]: the target
// function is taken out of the completion by name with tree-sitter
// (adapt.Extract), which accepts fenced and unfenced answers, keeps
// decorators, and names an answer that keeps the snippet's old name
// (report.OutcomeWrongName, where the artifact counts an import error). The
// function is spliced into the context file, and the task's unittest
// class runs in the sandbox, one fresh process per sample, with the
// artifact's limit of 5 seconds, import included. Every test's status and
// error type (report.TestOutcome.ErrorType: AssertionError, TypeError, …)
// is kept; a module that does not import is report.OutcomeCompileError, a
// run over the limit report.OutcomeTimeout.
//
// # Scores
//
// [Score] computes the paper's tables from an report.Report:
//
//   - pass@1-t and pass@5-t (Table IV): a sample solves a task when every
//     test of the class passes; the unbiased estimator, averaged over the
//     valid tasks.
//   - pass@1-a (Table V): a sample solves an adaptation when all of that
//     adaptation's tests pass, averaged over the adaptations of valid
//     tasks (exact; Row also has the artifact's approximation, c = n − the
//     most samples failing any one of its tests, which overcounts when
//     samples fail different tests). An adaptation without tests counts as
//     solved under both rules, as in the artifact.
//   - Table V cells are sums of pass@1-a per type (the expected number
//     solved), then per category with its percentage, then overall.
//   - Table VI counts errors in the unit of the artifact's tally: one
//     CompilationError per sample that did not import (or had no code, or
//     kept the old name), one TimeoutError per sample over the limit, and
//     one count per failing test of a sample that ran, by error type.
//
// Invalid tasks are left out of every score, as in report.Report: Table V
// here is over the adaptations of the valid tasks (Scores.Adaptations),
// the paper's over all 523 (Scores.AllAdaptations); WriteTables prints
// both denominators.
//
// # Leakage probe
//
// The paper checks data leakage by renaming the identifiers of each
// snippet and adapting it again (§VI-A, Table IX). [ObfuscatedTasks] makes
// a variant of every task whose snippet's parameters and locals are
// renamed var_0, var_1, … (ID suffix "/obfuscated", provenance
// "adapteval-obfuscate"); evaluate the variants with [Probe.Model], which
// maps each answer's names back before it is tested, and compare with
// [Delta] (pass@1-t and pass@1-a, obfuscated − original, with a paired
// bootstrap interval).
//
// The Leak Ratio of Table IX comes from CDD (Dong et al. 2024,
// "Generalization or Memorization"); the repository has no code for it.
// [CDD] measures, for each task of a run, the edit distance in cl100k_base
// tokens of each sample's answer (the extracted function) to the task's
// ground truth, and flags the task when more than a share ξ of its
// samples are within α·l of it (l the longest length;
// metrics.Peakedness). The Leak Ratio is the share of the tasks measured
// that are flagged (the paper's 1.22% is 2 of 164). The paper states
// neither its parameters, its samples nor its tokenizer: the defaults are
// CDD's own ([CDDPaper]: α = 0.05, ξ = 0.01, the first 100 tokens of each
// text), with the setting CDD's authors used on ChatGPT ([CDDRealWorld]:
// α = 0, ξ = 0.2) beside them; the samples are the run's. With n = 5 and
// ξ = 0.01 one near copy among the five flags a task. CDD proper compares
// the samples with the greedy output: [CDDOptions].Greedy takes the
// reference from a greedy run. Evaluate draws no sample for an invalid
// task, so a run without the full environments measures fewer tasks
// (CDDReport says how many); adapt.Draw samples every task without
// testing any.
//
// # Stability
//
// The tables (WriteTables) and the load report's text may change; the
// JSON forms follow the structs; Issue.Kind values are stable.
package adapteval
