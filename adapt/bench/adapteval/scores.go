package adapteval

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/metrics"
)

// Scores are the paper's tables for one evaluation, computed from its
// report.Report and the tasks it evaluated. Only valid tasks (whose
// reference passed) are scored, as in report.Report; Tasks and Valid say how
// many that is of how many.
type Scores struct {
	Model   string `json:"model"`
	Setting string `json:"setting"`
	Samples int    `json:"samples"`
	// Tasks counts the tasks evaluated, Valid those scored.
	Tasks int `json:"tasks"`
	Valid int `json:"valid"`
	// TaskPassAtK is pass@k-t (Table IV): a sample solves a task when every
	// test of its class passes; averaged over valid tasks.
	TaskPassAtK []report.Score `json:"task_pass_at_k"`
	// Adaptations counts the adaptations of valid tasks, the denominator
	// of pass@1-a and of Table V here; Untested those with no associated
	// test, which count as solved (see Rows).
	Adaptations int `json:"adaptations"`
	// AllAdaptations counts the adaptations of all the tasks evaluated,
	// valid or not: the paper's denominator (523 of 164 tasks on the whole
	// benchmark), which Adaptations is less than when tasks are invalid.
	AllAdaptations int `json:"all_adaptations"`
	Untested       int `json:"untested"`
	// AdaptPassAt1 is pass@1-a, exact: a sample solves an adaptation when
	// all of its associated tests pass; averaged over Adaptations.
	AdaptPassAt1 float64 `json:"adapt_pass_at_1"`
	// ArtifactAdaptPassAt1 is pass@1-a as the artifact computes it (see
	// Row.ArtifactSolved).
	ArtifactAdaptPassAt1 float64 `json:"artifact_adapt_pass_at_1"`
	// Rows is Table V: a row per adaptation type present (in the paper's
	// order), each category's total after its types, and the overall
	// total last.
	Rows []Row `json:"rows"`
	// Errors is Table VI, largest first (ties by name); ErrorTotal sums it.
	Errors     []ErrorCount `json:"errors"`
	ErrorTotal int          `json:"error_total"`
	// Outcomes counts the samples of valid tasks by outcome.
	Outcomes map[report.Outcome]int `json:"outcomes"`
	// Invalid lists the tasks left out, with the reason.
	Invalid []report.InvalidTask `json:"invalid,omitempty"`
}

// Row is one row of Table V.
type Row struct {
	// Category is the category label ("Logic"); Type the type label
	// ("Logic.Ins_Call"), or "" for a category total; both are "" for the
	// overall total.
	Category string `json:"category,omitempty"`
	Type     string `json:"type,omitempty"`
	// Abbrev is the paper's abbreviation of the type or category
	// ("Ins_Call", "LC"), or "All".
	Abbrev string `json:"abbrev"`
	// Count is the number of adaptations.
	Count int `json:"count"`
	// Solved is the expected number solved: the sum of the adaptations'
	// exact pass@1-a (the paper's cells).
	Solved float64 `json:"solved"`
	// ArtifactSolved is the same sum under the artifact's rule: c = n −
	// max over the adaptation's tests of the samples that failed that
	// test, which counts a sample failing one test and another failing a
	// different test once instead of twice. It equals Solved for
	// adaptations with one test; it is never less.
	ArtifactSolved float64 `json:"artifact_solved"`
	// PassAt1 is Solved / Count.
	PassAt1 float64 `json:"pass_at_1"`
}

// ErrorCount is one row of Table VI.
type ErrorCount struct {
	// Type is an exception class ("AssertionError"), "compilationError" or
	// "TimeoutError".
	Type  string  `json:"type"`
	Count int     `json:"count"`
	Share float64 `json:"share"`
}

// compilationError is Table VI's name for a sample that could not be
// imported (or had no code, or kept the old name: the artifact sees all
// three as an import failure).
const compilationError = "CompilationError"

// Score computes the paper's tables from an evaluation's report and the
// tasks it evaluated (every task of the report must be among them).
//
// Units: pass@k-t is averaged over valid tasks; pass@1-a over the
// adaptations of valid tasks, with an adaptation that has no associated
// test counted as solved, as the artifact does (its "all tests pass" holds
// vacuously). Samples that hit an infrastructure error are left out of
// every count, as in report.Report.
//
// Table VI counts, in the unit of the artifact's error tally: one
// compilationError per sample that did not import (compile-error, no-code
// and wrong-name samples), one TimeoutError per sample that hit the time
// limit, and, for a sample that ran, one count per test that did not pass,
// under its report.TestOutcome.ErrorType ("Error" when none is known).
// Model errors are not counted.
func Score(rep *report.Report, tasks []adapt.Task) (*Scores, error) {
	byID := make(map[string]*adapt.Task, len(tasks))
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	s := &Scores{
		Model: rep.Run.Model, Setting: rep.Run.Template, Samples: rep.Run.Samples,
		Tasks: rep.Tasks, Valid: rep.Valid, TaskPassAtK: slices.Clone(rep.PassAtK),
		Outcomes: map[report.Outcome]int{}, Invalid: rep.Invalid,
	}
	type acc struct {
		count            int
		solved, artifact float64
	}
	types := map[string]*acc{}
	var typeOrder []string
	errs := map[string]int{}
	for _, tr := range rep.PerTask {
		t, ok := byID[tr.TaskID]
		if !ok {
			return nil, fmt.Errorf("adapteval: the report's task %q is not among the tasks", tr.TaskID)
		}
		s.AllAdaptations += len(t.Requirement.Steps)
		if !tr.Valid {
			continue
		}
		var samples []report.SampleResult
		for _, sr := range tr.Samples {
			s.Outcomes[sr.Outcome]++
			if sr.Outcome != report.OutcomeInfraError {
				samples = append(samples, sr)
				countErrors(sr, errs)
			}
		}
		for _, st := range t.Requirement.Steps {
			tests := t.StepTests(st.ID)
			exact, art := stepCounts(samples, tests)
			a := types[st.Type]
			if a == nil {
				a = &acc{}
				types[st.Type] = a
				typeOrder = append(typeOrder, st.Type)
			}
			a.count++
			a.solved += pass1(len(samples), exact)
			a.artifact += pass1(len(samples), art)
			s.Adaptations++
			if len(tests) == 0 {
				s.Untested++
			}
		}
	}
	// Table V: known types in the paper's order, then unknown ones.
	var order []string
	for _, ty := range adaptationTypes {
		if types[ty.Label] != nil {
			order = append(order, ty.Label)
		}
	}
	for _, l := range typeOrder {
		if _, ok := typeByLabel(l); !ok {
			order = append(order, l)
		}
	}
	var cats []string
	for _, c := range categories {
		cats = append(cats, c.Label)
	}
	for _, l := range order {
		if c, _, _ := strings.Cut(l, "."); !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
	}
	total := Row{Abbrev: "All"}
	for _, c := range cats {
		sum := Row{Category: c, Abbrev: c}
		if cat, ok := categoryByLabel(c); ok {
			sum.Abbrev = cat.Abbrev
		}
		for _, l := range order {
			if cc, _, _ := strings.Cut(l, "."); cc != c {
				continue
			}
			a := types[l]
			row := Row{Category: c, Type: l, Abbrev: l, Count: a.count, Solved: a.solved, ArtifactSolved: a.artifact}
			if ty, ok := typeByLabel(l); ok {
				row.Abbrev = ty.Abbrev
			}
			row.PassAt1 = ratio(row.Solved, row.Count)
			s.Rows = append(s.Rows, row)
			sum.Count += row.Count
			sum.Solved += row.Solved
			sum.ArtifactSolved += row.ArtifactSolved
		}
		if sum.Count == 0 {
			continue
		}
		sum.PassAt1 = ratio(sum.Solved, sum.Count)
		s.Rows = append(s.Rows, sum)
		total.Count += sum.Count
		total.Solved += sum.Solved
		total.ArtifactSolved += sum.ArtifactSolved
	}
	total.PassAt1 = ratio(total.Solved, total.Count)
	s.Rows = append(s.Rows, total)
	s.AdaptPassAt1 = total.PassAt1
	s.ArtifactAdaptPassAt1 = ratio(total.ArtifactSolved, total.Count)

	for _, name := range slices.Sorted(maps.Keys(errs)) {
		s.Errors = append(s.Errors, ErrorCount{Type: name, Count: errs[name]})
		s.ErrorTotal += errs[name]
	}
	slices.SortStableFunc(s.Errors, func(a, b ErrorCount) int { return b.Count - a.Count })
	for i := range s.Errors {
		s.Errors[i].Share = ratio(float64(s.Errors[i].Count), s.ErrorTotal)
	}
	return s, nil
}

// stepCounts returns how many samples solve a step with the given tests:
// exactly (all its tests pass) and by the artifact's rule (n minus the
// largest number of samples failing any one of its tests).
func stepCounts(samples []report.SampleResult, tests []string) (exact, artifact int) {
	worst := 0
	for _, name := range tests {
		fails := 0
		for _, sr := range samples {
			if !artifactPassed(sr, name) {
				fails++
			}
		}
		worst = max(worst, fails)
	}
	for _, sr := range samples {
		all := true
		for _, name := range tests {
			if !sr.Passed(name) {
				all = false
				break
			}
		}
		if all {
			exact++
		}
	}
	return exact, len(samples) - worst
}

// artifactPassed is whether the artifact counts a test as passed in a
// sample: the sample imported and did not time out, and the test was not
// among its errors and failures (a skipped test passes).
func artifactPassed(sr report.SampleResult, name string) bool {
	switch sr.Outcome {
	case report.OutcomePassed:
		return true
	case report.OutcomeFailed, report.OutcomeMemory, report.OutcomeOutput, report.OutcomeCrashed:
		for _, t := range sr.Tests {
			if t.Name == name {
				return t.Status == exec.TestPassed || t.Status == exec.TestSkipped
			}
		}
	}
	return false
}

// countErrors adds a sample's Table VI counts.
func countErrors(sr report.SampleResult, errs map[string]int) {
	switch sr.Outcome {
	case report.OutcomePassed, report.OutcomeModelError, report.OutcomeInfraError:
	case report.OutcomeCompileError, report.OutcomeNoCode, report.OutcomeWrongName:
		errs[compilationError]++
	case report.OutcomeTimeout:
		errs["TimeoutError"]++
	default:
		for _, t := range sr.Tests {
			switch t.Status {
			case exec.TestPassed, exec.TestSkipped:
				continue
			}
			name := t.ErrorType
			if name == "" {
				name = "Error"
			}
			errs[name]++
		}
	}
}

func pass1(n, c int) float64 {
	v, err := metrics.PassAtK(n, c, 1)
	if err != nil {
		return 0
	}
	return v
}

func ratio(x float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return x / float64(n)
}

// WriteJSON writes the scores as indented JSON.
func (s *Scores) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(s)
}

// WriteTables writes the scores as Markdown in the layout of the paper's
// Tables IV (task level), V (adaptation level, by category and type) and
// VI (errors), with the artifact's approximation of pass@1-a beside the
// exact value. The text is for people and may change.
func (s *Scores) WriteTables(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s · %s · n=%d\n\n", s.Model, s.Setting, s.Samples)
	fmt.Fprintf(&b, "Table IV (task level): %d of %d tasks valid\n\n| pass@k-t | value |\n|---|---|\n", s.Valid, s.Tasks)
	for _, sc := range s.TaskPassAtK {
		fmt.Fprintf(&b, "| pass@%d-t | %.2f |\n", sc.K, 100*sc.Value)
	}
	fmt.Fprintf(&b, "\nTable V (adaptation level): %d adaptations of the %d valid tasks, of %d adaptations of the %d tasks evaluated (the paper counts all of them); %d without a test, counted as solved; cells are the expected number solved, the percentages over the valid adaptations\n\n",
		s.Adaptations, s.Valid, s.AllAdaptations, s.Tasks, s.Untested)
	b.WriteString("| Cat | Type (count) | solved | artifact rule | pass@1-a |\n|---|---|---|---|---|\n")
	for _, r := range s.Rows {
		cat := r.Abbrev
		if c, ok := categoryByLabel(r.Category); ok {
			cat = c.Abbrev
		} else if r.Category != "" {
			cat = r.Category
		}
		// The type as the report and the data name it, so that the two can
		// be read side by side; the paper's abbreviation where it differs
		// ("Rename_Var (paper: Renam_EVar)").
		name := r.Abbrev
		if _, code, ok := strings.Cut(r.Type, "."); ok && code != r.Abbrev {
			name = code + " (paper: " + r.Abbrev + ")"
		}
		switch {
		case r.Category == "" && r.Type == "":
			cat, name = "**All**", "**All**"
		case r.Type == "":
			cat, name = "**"+cat+"**", "**All**"
		}
		fmt.Fprintf(&b, "| %s | %s (%d) | %.1f | %.1f | %.2f%% |\n", cat, name, r.Count, r.Solved, r.ArtifactSolved, 100*r.PassAt1)
	}
	fmt.Fprintf(&b, "\npass@1-a: %.2f%% exact, %.2f%% by the artifact's rule\n", 100*s.AdaptPassAt1, 100*s.ArtifactAdaptPassAt1)
	fmt.Fprintf(&b, "\nTable VI (errors): %d in all\n\n| error type | count | share |\n|---|---|---|\n", s.ErrorTotal)
	for _, e := range s.Errors {
		fmt.Fprintf(&b, "| %s | %d | %.2f%% |\n", e.Type, e.Count, 100*e.Share)
	}
	b.WriteString("\n| outcome | samples |\n|---|---|\n")
	for _, o := range report.Outcomes {
		if n := s.Outcomes[o]; n > 0 {
			fmt.Fprintf(&b, "| %s | %d |\n", o, n)
		}
	}
	if len(s.Invalid) > 0 {
		fmt.Fprintf(&b, "\n%d invalid tasks (reference failed; left out):\n\n| task | reason |\n|---|---|\n", len(s.Invalid))
		for _, it := range s.Invalid {
			fmt.Fprintf(&b, "| %s | %s |\n", it.TaskID, strings.ReplaceAll(it.Reason, "|", `\|`))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
