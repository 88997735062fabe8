// Package report holds the records of an evaluation and their writers:
// the [Report] that adapt.Evaluate, adapt.Draw and adapt.Merge return, its
// parts (each task's [TaskReport], each sample's [SampleResult] and
// [Outcome], the [Completion] the model gave with its [Usage]), the run's
// settings ([RunInfo], [Sampling], [Manifest]), the [Progress] event of
// every long call, and a generator's validity [Funnel]. It imports nothing
// of package adapt, so that code which reads, compares or draws reports
// (package adapt/htmlreport, a CI gate) needs no evaluation engine.
//
//	rep, err := adapt.Evaluate(ctx, tasks, model, opts) // a *report.Report
//	if err != nil { … }
//	rep.WriteMarkdown(os.Stdout)
//	base, err := report.ReadReport(f) // a report WriteJSON wrote before
//	cmp, err := report.Compare(base, rep)
//
// # Verdicts
//
// Every sample gets one [Outcome]. Scored ones say something about the
// model: passed, failed, no code, wrong name (the snippet's function kept
// its old name), compile error, timeout, memory, output, crashed and
// tampered (the code under test forged its results: a failure, listed in
// [Report].Tampered). The reference is trusted: an evidence kind its own
// run produces is what its task needs, never evidence against the task's
// samples ([TaskReport].Allows). Unscored ones say nothing about it and
// are never counted as failures: a model error (the request failed
// adapt.Options.Attempts times) or an infrastructure error (the check
// could not run). A task whose reference fails is invalid (a data or
// environment problem) and left out of the scores; one whose reference
// could not be checked is listed in [Report].Unscored with the reason.
//
// pass@k of a task is computed from its scored samples only, and only
// when it has at least k of them; a task with fewer is listed in
// [Report].Unscored with its counts and first error, never padded. Each
// [Score] says how many tasks it averages and carries a 95% bootstrap
// interval over them (2000 resamples, seed 1).
//
// # Writers
//
// A [Report] holds task-level and adaptation-level pass@k, breakdowns by
// adaptation category and type and by task label ([Breakdown]), invalid
// and unscored tasks with reasons, counts of each [Outcome], every sample
// with its completion, token usage and the run's settings. It holds no
// timings: the same inputs give the same report, byte for byte, whatever
// the order the tasks come in. [Report.WriteJSON] is the data
// ([ReadReport] reads it back); [Report.WriteMarkdown],
// [Report.WritePerTask] and [Report.WriteCSV] are for people, and their
// text may change.
//
// [WriteComparison] sets reports side by side. [Compare] tests whether two
// runs on the same tasks differ: McNemar's test on the tasks (each solved
// or not by a strict majority of its scored samples), the difference in
// every pass@k with a bootstrap interval, the tasks that flipped, and
// every task and sample it could not pair, with the reason.
package report
