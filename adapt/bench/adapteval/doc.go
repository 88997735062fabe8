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
// # Loading
//
// [Load] reads the repository as it is published, from any fs.FS; [LoadDir]
// from a checkout on disk, and [LoadRevision] from a commit of the git
// repository, recording the repository and the commit in every task's
// provenance. Tasks are named "<repo id>.<file stem>.<method>". Without
// the GitHub projects (a separate Drive tarball) about 40% of the tasks
// import modules a plain Python does not have: such a task loads, and the
// gold check of adapt.Evaluate reports it invalid, not a model failure.
// Everything the loader tolerates in the published data is listed in the
// [LoadReport]; a task whose files are missing is left out, never a crash.
//
// # Prompts and pipeline
//
// The five settings of the paper are [Settings]: AReq (the adaptation list)
// and TReq (the task sentence), each with the Oracle context or without
// (NoCtx), and NoReq (the target file around the function). A setting's
// [Setting.Template] renders what the artifact's PromptLoader builds, byte
// for byte; [Setting].CategoryOnly picks between the artifact's two forms
// of the type field.
//
// Each sample goes through adapt.Evaluate with [Options]: the function is
// extracted from the answer by name, spliced into the context file, and
// the task's unittest class runs in the sandbox, one fresh process per
// sample, with the artifact's limit of 5 seconds. Every test's status and
// error type is kept.
//
// # Scores
//
// [Score] computes the paper's tables from a report.Report: pass@1-t and
// pass@5-t (Table IV, a sample solves a task when every test passes),
// pass@1-a per adaptation, type and category (Table V), and errors by type
// (Table VI). Invalid tasks are left out of every score; WriteTables prints
// Table V over the valid tasks' adaptations and over all 523.
//
// # Leakage probe
//
// The paper checks data leakage by renaming the identifiers of each
// snippet and adapting it again (§VI-A, Table IX). [ObfuscatedTasks] makes
// a variant of every task whose snippet's parameters and locals are
// renamed var_0, var_1, …; evaluate the variants with [Probe.Model], which
// maps each answer's names back before it is tested, and compare with
// [Delta] (obfuscated − original, with a paired bootstrap interval).
//
// The Leak Ratio of Table IX comes from CDD (Dong et al. 2024); the
// repository has no code for it. [CDD] flags a task when more than a share
// ξ of its samples are within an edit distance α·l of the ground truth, and
// reports the share of tasks flagged. The defaults are CDD's own
// ([CDDPaper]), with [CDDRealWorld] beside them; [CDDOptions].Greedy takes
// the reference from a greedy run, as CDD proper does.
//
// # Stability
//
// The tables (WriteTables) and the load report's text may change; the
// JSON forms follow the structs; Issue.Kind values are stable.
package adapteval
