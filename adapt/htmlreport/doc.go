// Package htmlreport writes an [report.Report] as one self-contained HTML
// page, for a person to read: the numbers of a run, its plots, and every
// task and sample behind them.
//
// # Writing one
//
// Evaluate, then write the report beside the run's other outputs. Given
// the tasks, the page also shows their prompts and code:
//
//	rep, err := adapt.Evaluate(ctx, tasks, model, nil)
//	if err != nil { … }
//	f, err := os.Create("report.html")
//	if err != nil { … }
//	err = htmlreport.Write(f, rep, &htmlreport.Options{Tasks: tasks})
//	if cerr := f.Close(); err == nil { err = cerr }
//
// A report read back with [report.ReadReport], or merged from shards with
// [adapt.Merge], is written the same way: the page needs only the report
// (and, for the explorer's prompts and diffs, the tasks).
//
// # What the page shows
//
//   - The run: model, template, samples per task, k, whether the
//     references were checked first, and the machine the checks ran on
//     (the report's manifest).
//   - A summary with seeded bootstrap 95% intervals, and the count of
//     each outcome.
//   - Inline SVG plots, each with a link that saves it as a standalone
//     SVG (a figure for a paper): task-level pass@k; pass@1 by adaptation
//     category, by adaptation type and by task label (the labels as one
//     faceted figure), with interval whiskers and each bar's value and
//     count; and the degradation from each derived task's parent
//     (Provenance.Parent) to it, by generator and operators.
//   - The breakdown table.
//   - With [Options].Runs, the other runs side by side in the summary, the
//     plots and the breakdowns (labelled as [report.WriteComparison] labels
//     its columns); with exactly one other run, [report.Compare]'s paired
//     differences, McNemar's tests and the tasks that flipped.
//   - The generators' sections ([Options].Sections): a note, a funnel
//     (drawn and tabulated per group), a scatter plot.
//   - An explorer of every task and sample, with filters by category,
//     type, outcome and label and a search box: the prompt, the
//     completion, the extracted code, unified diffs against the reference
//     and against the original code, each test's outcome and message, and
//     the provenance record.
//
// [Options].Baseline is the report on the parents when they are not in
// this one. [Options].Template renders the prompts of a template that is
// not one of adapt's built-in ones (a benchmark's own, as AdaptEval's);
// without it the page says why the prompts are missing.
//
// # Contracts
//
// The page is one file that loads nothing: its CSS, script and data are
// inline, and its content security policy allows no request and runs only
// the page's own script (by its hash), so a completion that holds markup
// is shown as text and cannot run.
//
// The page is a pure function of its inputs: the same report and options
// give the same bytes. Each embedded text is cut to [Options].MaxText
// bytes (16 KiB by default), keeping its head and tail around a marker
// that says how much was cut.
//
// The page's layout, its text and its embedded data are for people and
// may change; read numbers from the report itself (Report.WriteJSON), not
// from the page.
//
// # Sections
//
// An [adapt.Section] is what a task generator contributes to the page:
// plain data (a note, a funnel, a scatter plot) that Write lays out and
// draws, so that every generator's section looks the same and nothing a
// generator holds reaches the page unescaped. mutate, ctxbug and evolve
// each make theirs with their Result's HTMLSection method and import
// nothing of this package; a generator of one's own fills a Section the
// same way. A Section read back from its JSON (see adapt.Section) draws
// the same page. In a paired scatter, point i of the first two series is
// the same subject, before and after, and a line joins them.
package htmlreport
