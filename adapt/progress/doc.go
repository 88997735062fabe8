// Package progress shows a person how far adaptbench's long calls are: the
// one display of report.Progress, the callback type every long call of the
// SDK reports through (adapt.Evaluate and Draw, and the generators'
// generation, search and identification through their Options.Progress).
//
//	d := progress.New(os.Stderr, model.Name())
//	rep, err := adapt.Evaluate(ctx, tasks, model, &adapt.Options{Progress: d.Report})
//	d.Close()
//
// On a terminal it draws a bar (github.com/schollz/progressbar/v3) with the
// label and phase, the count, the checks that passed, the rate and the time
// left (items: checks, candidates, subjects, whatever the call counts).
// Anywhere else (a log, a pipe, CI) it writes plain lines, one at
// each tenth of the work, at each phase, at the end and at least every
// Interval while work goes on, so a log shows the run without a line per
// check. A notice (report.Progress.Notice) is a line of its own either way.
//
// The display is a package of its own so that importing adapt pulls in no
// terminal code.
package progress
