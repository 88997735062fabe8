package adapt

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// MergeOptions configures Merge. A nil *MergeOptions means the defaults.
type MergeOptions struct {
	// Partial merges journals that lack some checks (a shard not given,
	// a run not finished): the missing samples are listed in
	// Report.Unscored. By default a missing check is an error.
	Partial bool
	// Breakdown lists the task label keys the report breaks scores down
	// by, as Options.Breakdown does; nil means none. The shards' journals
	// do not record it: it changes no score.
	Breakdown []string
	// Name labels the merged run, as Options.Name does. "" means the name
	// in the first journal's header (the model's name when it has none).
	Name string
}

// ErrIncomplete is wrapped when the journals given to Merge lack checks of
// the task set.
var ErrIncomplete = errors.New("adapt: the journals do not hold the whole evaluation")

type missingCheck struct {
	task   string
	sample int // -1: the reference
}

// Merge builds the report of an evaluation run in shards from the shards'
// journals and the full task list: the report a single run gives. Every
// journal must come from the same evaluation (the same settings and task
// set; a *JournalMismatchError names what differs) and be finished (not
// held by a running evaluation, no torn last line). Unless opts.Partial, a
// task of the set with no record or too few samples in the journals is an
// error naming the first missing tasks and the shards that should hold
// them.
func Merge(tasks []Task, journals []string, opts *MergeOptions) (*report.Report, error) {
	var o MergeOptions
	if opts != nil {
		o = *opts
	}
	all, hashes, err := checkTasks(tasks)
	if err != nil {
		return nil, err
	}
	if len(journals) == 0 {
		return nil, errors.New("adapt: Merge needs at least one journal")
	}
	recs := newRecords()
	var info *report.RunInfo
	first := ""
	count := 0
	shards := map[int]string{}
	for _, j := range journals {
		jf, err := readJournalFile(j, hashes, recs)
		if err != nil {
			return nil, err
		}
		if info == nil {
			info, first = jf.meta, j
		} else if fingerprint(*jf.meta) != fingerprint(*info) {
			return nil, &JournalMismatchError{Path: j, Diffs: diffRunInfos(*jf.meta, *info, "in "+j, "in "+first), merge: true}
		}
		if info.TaskCount != len(all) || info.TaskSet != taskSetDigest(hashes) {
			now := *info
			now.TaskCount, now.TaskSet = len(all), taskSetDigest(hashes)
			return nil, &JournalMismatchError{Path: j, Diffs: diffRunInfos(*info, now, "in the journal", "in the tasks given"), merge: true}
		}
		if recs.stale > 0 {
			return nil, &JournalMismatchError{Path: j, Diffs: []string{fmt.Sprintf("%d records name tasks that changed since (first: %q)", recs.stale, recs.firstStale)}, merge: true}
		}
		if c := max(jf.shard.Count, 1); count == 0 {
			count = c
		} else if c != count {
			return nil, &JournalMismatchError{Path: j, Diffs: []string{fmt.Sprintf("it is %s, another journal is one of %d shards", jf.shard, count)}, merge: true}
		}
		if prev, ok := shards[jf.shard.Index]; ok {
			return nil, fmt.Errorf("adapt: %s and %s are both %s; give each shard's journal once", prev, j, jf.shard)
		}
		shards[jf.shard.Index] = j
	}
	run := *info
	if o.Name != "" {
		run.Name = o.Name
	} else if run.Name == "" {
		run.Name = run.Model // a journal written before runs had names
	}
	var missing []missingCheck
	rep := buildReport(run, o.Breakdown, all, recs, &missing)
	if len(missing) > 0 && !o.Partial {
		return nil, incomplete(missing, Shard{Count: count}, shards)
	}
	if err := scoredAny(rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// incomplete says which tasks the journals lack and where they belong.
func incomplete(missing []missingCheck, of Shard, given map[int]string) error {
	var tasks []string
	byShard := map[int]int{}
	for _, m := range missing {
		if len(tasks) == 0 || tasks[len(tasks)-1] != m.task {
			tasks = append(tasks, m.task)
			byShard[of.of(m.task)]++
		}
	}
	first := tasks[:min(len(tasks), 5)]
	var where []string
	for _, i := range slices.Sorted(maps.Keys(byShard)) {
		s := Shard{Index: i, Count: of.Count}
		if j, ok := given[i]; ok {
			where = append(where, fmt.Sprintf("%d in %s (%s: resume that run to finish it)", byShard[i], s, j))
		} else {
			where = append(where, fmt.Sprintf("%d in %s, whose journal was not given", byShard[i], s))
		}
	}
	have := "have"
	if len(missing) == 1 {
		have = "has"
	}
	return fmt.Errorf("%w: %s of %s %s no record (first: %s); by shard: %s; pass MergeOptions.Partial to merge anyway",
		ErrIncomplete, textkit.Count(len(missing), "check"), textkit.Count(len(tasks), "task"), have, strings.Join(first, ", "), strings.Join(where, "; "))
}
