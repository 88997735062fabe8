// Package textkit holds the small text helpers that adapt, its report
// writers, its benchmarks and the generators share: reading code fences,
// JSON Lines and Python tracebacks, and writing numbers and diffs the same
// way everywhere. It is plain Go (the tree-sitter parsing is
// internal/syntax's) and imports nothing of this module.
//
// # Code fences
//
// [CodeBlocks] finds the fenced code blocks of a model's answer, as
// CommonMark reads them: the one reader of code fences that adapt's
// Extract and every generator asking a model for code share.
//
// # JSON Lines
//
// [ReadJSONL] is the one JSON Lines reader of the module: tasks, replays,
// journals of other tools and the datasets the loaders read all go
// through it, so that blank lines, long lines and the line numbers in
// errors mean the same everywhere.
//
// # Numbers
//
// [Pct], [Count] and their siblings are the rules by which adapt's text
// reports and adapt/htmlreport's page write numbers and label runs, so
// that the page and the Markdown say the same thing the same way.
//
// # Diffs
//
// [Diff] and [Unified] compute line diffs of texts and write them as
// unified diffs (the format of diff -u and git diff), for people to read:
// the HTML report shows a sample's code against the reference and against
// the code it adapted. Nothing here appears in an exported signature.
//
// # Python tracebacks
//
// [ExceptionType] and [ExceptionLine] read Python tracebacks: which
// exception a test run ended with, for the verdict's error type and for
// the reasons a generator gives.
package textkit
