package htmlreport

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/textkit"
	"github.com/adaptbench/adaptbench/metrics"
)

// Options configures Write. A nil *Options means the defaults.
type Options struct {
	// Title heads the page; "" means "adaptbench: " and the model's name.
	Title string
	// Tasks are the tasks the report is about, matched by ID: the
	// drill-down shows their prompts, code, reference and provenance, and
	// diffs each sample's code against the reference and against the code
	// it adapted. Nil shows the results only.
	Tasks []adapt.Task
	// Template renders the prompts shown; nil means the built-in template
	// the report names (Run.Template), and no prompt when it names none.
	Template *adapt.Template
	// Runs are other reports set beside this one in the plots and the
	// summary (another model, another template), in order.
	Runs []*report.Report
	// Baseline is the report on the tasks this report's tasks were derived
	// from (their Provenance.Parent). The degradation plot sets each
	// derived task's pass@1 beside its parent's; nil means the parents are
	// looked up in this report itself.
	Baseline *report.Report
	// Sections are what task generators contribute: their funnels, their
	// fronts, a note (see mutate, ctxbug and evolve's HTMLSection). Write
	// lays them out and draws them.
	Sections []report.Section
	// MaxText bounds each text embedded (a completion, code, a diff, a
	// test message), in bytes: a longer one keeps its head and tail around
	// a marker that says how much was cut. 0 means 16 KiB.
	MaxText int
}

//go:embed report.tmpl
var htmlTemplateText string

//go:embed report.css
var htmlCSS string

//go:embed report.js
var htmlJS string

var htmlTemplate = template.Must(template.New("report").Parse(htmlTemplateText))

// Write writes the report r as one self-contained HTML page: no network,
// no external file. It holds the summary with 95% intervals, the
// breakdowns, inline SVG plots (pass@k and pass@1 by adaptation category,
// type and label, the runs of opts.Runs side by side, the degradation from
// original to derived tasks, the generators' sections), and an explorer
// of every task and sample (prompt, completion, extracted code, diffs,
// each test's outcome and message, provenance) with filters and a search
// box. The page is a pure function of its inputs: the same report gives
// the same bytes. Its layout is for people and may change.
func Write(w io.Writer, r *report.Report, opts *Options) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxText <= 0 {
		o.MaxText = 16 << 10
	}
	if o.Title == "" {
		o.Title = "adaptbench: " + r.Run.Model
	}
	if o.Template == nil && r.Run.Template != "" {
		o.Template, _ = adapt.TemplateByName(r.Run.Template)
	}
	tasks := map[string]*adapt.Task{}
	for i := range o.Tasks {
		tasks[o.Tasks[i].ID] = &o.Tasks[i]
	}
	runs := append([]*report.Report{r}, o.Runs...)
	page := htmlPage{
		Title: o.Title,
		CSS:   template.CSS(htmlCSS),
		JS:    template.JS(htmlJS),
		// The page's content security policy lets only this script run
		// (by its hash) and loads nothing: a completion that smuggled
		// markup in still could not run or fetch anything.
		ScriptHash: "sha256-" + base64.StdEncoding.EncodeToString(func() []byte { h := sha256.Sum256([]byte(htmlJS)); return h[:] }()),
		Run:        r.Run,
	}
	if len(r.Machines) > 1 {
		page.Machines = r.Machines
	}
	switch lo, hi := sampleRange(r.Run); {
	case lo != hi:
		page.Samples = fmt.Sprintf("%d–%d samples per task", lo, hi)
	case lo == 1:
		page.Samples = "1 sample per task"
	default:
		page.Samples = fmt.Sprintf("%d samples per task", lo)
	}
	page.Summary = htmlSummary(runs)
	page.Plots = htmlPlots(runs, tasks, o.Baseline)
	page.Breakdowns = htmlBreakdowns(runs)
	if len(runs) == 2 {
		if c, err := report.Compare(runs[0], runs[1]); err == nil {
			page.Comparison = htmlComparisonOf(c)
		}
	}
	if o.Template == nil && r.Run.Template != "" && len(o.Tasks) > 0 {
		page.PromptNote = fmt.Sprintf("The prompts are not shown: the report's template %q is not one of adapt's built-in templates (a benchmark's own, such as AdaptEval's); pass it as htmlreport.Options.Template to show them.", r.Run.Template)
	}
	page.Invalid, page.Unscored = r.Invalid, r.Unscored
	page.Outcomes = htmlTable{Head: append([]string{"outcome"}, runLabels(runs)...)}
	for _, o := range outcomesOf(runs) {
		row := []string{o.String()}
		for _, r := range runs {
			row = append(row, strconv.Itoa(r.Outcomes[o]))
		}
		page.Outcomes.Rows = append(page.Outcomes.Rows, row)
	}
	for _, s := range o.Sections {
		page.Sections = append(page.Sections, htmlSectionOf(s))
	}
	data, err := htmlDataOf(runs, tasks, &o)
	if err != nil {
		return err
	}
	page.Data = template.JS(data)
	var b bytes.Buffer
	if err := htmlTemplate.Execute(&b, page); err != nil {
		return fmt.Errorf("htmlreport: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

type htmlPage struct {
	Title      string
	CSS        template.CSS
	JS         template.JS
	ScriptHash string
	Run        report.RunInfo
	Machines   []report.Machine // when several produced the report's records
	Samples    string           // per task: "2 samples per task", "1–2 samples per task"
	Summary    htmlTable
	Outcomes   htmlTable
	Plots      []htmlPlot
	Breakdowns htmlTable
	Comparison *htmlComparison
	PromptNote string
	Invalid    []report.InvalidTask
	Unscored   []report.UnscoredTask
	Sections   []htmlSection
	Data       template.JS
}

// htmlComparison is Compare's result on the page: the paired differences,
// McNemar's tests and the tasks that flipped.
type htmlComparison struct {
	A, B         string
	Deltas       htmlTable
	Tests        htmlTable
	Gained, Lost []string
	Unpaired     int
	SameTaskSet  bool
}

func htmlComparisonOf(c *report.Comparison) *htmlComparison {
	h := &htmlComparison{A: c.A, B: c.B, Gained: c.Gained, Lost: c.Lost, Unpaired: len(c.Unpaired), SameTaskSet: c.SameTaskSet}
	h.Deltas.Head = []string{"", "A: " + c.A, "B: " + c.B, "B − A (points)", "95% CI (bootstrap)", "paired"}
	delta := func(name string, d report.Delta) {
		ci := "–"
		if d.CI95 != nil {
			ci = "[" + textkit.SignedPct(d.CI95.Lo) + ", " + textkit.SignedPct(d.CI95.Hi) + "]"
		}
		h.Deltas.Rows = append(h.Deltas.Rows, []string{name, textkit.Pct(d.A) + "%", textkit.Pct(d.B) + "%", textkit.SignedPct(d.Value), ci, strconv.Itoa(d.Tasks)})
	}
	for _, d := range c.Delta {
		delta(fmt.Sprintf("pass@%d, task", d.K), d)
	}
	if c.AdaptationDelta != nil {
		delta("pass@1, adaptation (steps)", *c.AdaptationDelta)
	}
	h.Tests.Head = []string{"McNemar", "pairs", "A only", "B only", "p"}
	test := func(name string, pairs int, m metrics.McNemarResult) {
		h.Tests.Rows = append(h.Tests.Rows, []string{name, strconv.Itoa(pairs), strconv.Itoa(m.B10), strconv.Itoa(m.B01), strconv.FormatFloat(m.PValue, 'g', 4, 64)})
	}
	test("tasks (the headline)", c.PairedTasks, c.Tasks)
	test("samples (by index)", c.PairedSamples, c.Samples)
	return h
}

// htmlBreakdowns is the breakdown table with a count and a pass@1 column
// per run, a row per dimension and value any run has.
func htmlBreakdowns(runs []*report.Report) htmlTable {
	t := htmlTable{Head: []string{"by", "value"}}
	names := runLabels(runs)
	for _, n := range names {
		if len(runs) == 1 {
			n = ""
		} else {
			n += ": "
		}
		t.Head = append(t.Head, n+"count", n+"solved", n+"pass@1")
	}
	type key struct{ by, value string }
	var keys []key
	cells := map[key][]string{}
	for i, r := range runs {
		for _, bd := range r.Breakdowns {
			k := key{bd.By, bd.Value}
			if _, ok := cells[k]; !ok {
				keys = append(keys, k)
				cells[k] = slices.Repeat([]string{"–"}, 3*len(runs))
			}
			copy(cells[k][3*i:], []string{strconv.Itoa(bd.Count), textkit.Fixed(bd.Solved, 1), textkit.Pct(bd.PassAt1) + "%"})
		}
	}
	for _, k := range keys {
		t.Rows = append(t.Rows, append([]string{k.by, k.value}, cells[k]...))
	}
	return t
}

// fileName makes a download's file name of a title.
func fileName(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

type htmlTable struct {
	Head []string
	Rows [][]string
}

type htmlSection struct {
	Title  string
	Paras  []string
	Plots  []htmlPlot
	Funnel *htmlTable
}

// taskScores returns the pass@k of every task that has one, in task order.
func taskScores(r *report.Report, k int) []float64 {
	var vs []float64
	for _, tr := range r.PerTask {
		if v, ok := scoreAt(tr.PassAtK, k); ok {
			vs = append(vs, v)
		}
	}
	return vs
}

// meanCI is the mean of vs with its seeded bootstrap 95% interval (the
// one Report.CI95 holds for pass@1); ok is false for no values.
func meanCI(vs []float64) (mean, lo, hi float64, ci, ok bool) {
	if len(vs) == 0 {
		return 0, 0, 0, false, false
	}
	mean, _ = metrics.Mean(vs)
	if len(vs) > 1 {
		if in, err := metrics.BootstrapMean(vs, 2000, 0.95, 1); err == nil {
			return mean, in.Lo, in.Hi, true, true
		}
	}
	return mean, 0, 0, false, true
}

func pctCI(v, lo, hi float64, ci bool) string {
	s := textkit.Pct(v) + "%"
	if ci {
		s += " [" + textkit.Pct(lo) + ", " + textkit.Pct(hi) + "]"
	}
	return s
}

// htmlSummary is the summary table: a column per run.
func htmlSummary(runs []*report.Report) htmlTable {
	t := htmlTable{Head: append([]string{""}, runLabels(runs)...)}
	row := func(name string, cell func(r *report.Report) string) {
		cells := []string{name}
		for _, r := range runs {
			cells = append(cells, cell(r))
		}
		t.Rows = append(t.Rows, cells)
	}
	if slices.ContainsFunc(runs, func(r *report.Report) bool { return r.Run.Template != "" }) {
		// A run that reads no prompt names no template: no empty row.
		row("template", func(r *report.Report) string { return r.Run.Template })
	}
	row("samples per task", func(r *report.Report) string { return samplesText(r.Run) })
	row("tasks (valid)", func(r *report.Report) string { return fmt.Sprintf("%d (%d)", r.Tasks, r.Valid) })
	for _, k := range allKs(runs) {
		row(fmt.Sprintf("pass@%d, task [95%% CI]", k), func(r *report.Report) string {
			if s, ok := scoreOf(r.PassAtK, k); ok {
				_, lo, hi, ci, _ := meanCI(taskScores(r, k))
				return pctCI(s.Value, lo, hi, ci) + fmt.Sprintf(" of %d", s.Tasks)
			}
			return "–"
		})
	}
	row("pass@1, adaptation", func(r *report.Report) string {
		if s, ok := scoreOf(r.AdaptationPassAtK, 1); ok {
			return fmt.Sprintf("%s%% of %d steps", textkit.Pct(s.Value), s.Tasks)
		}
		return "–"
	})
	row("unscored tasks", func(r *report.Report) string { return strconv.Itoa(len(r.Unscored)) })
	row("tokens (prompt / completion)", func(r *report.Report) string {
		return fmt.Sprintf("%d / %d", r.Usage.PromptTokens, r.Usage.CompletionTokens)
	})
	return t
}

// stepScores returns the pass@1 of every scored adaptation step whose
// type (by "type") or category (by "category") is value.
func stepScores(r *report.Report, by, value string) []float64 {
	var vs []float64
	for _, tr := range r.PerTask {
		if tr.N == 0 {
			continue
		}
		for _, st := range tr.Steps {
			v := st.Type
			if by == "category" {
				v = adapt.Step{Type: st.Type}.Category()
			}
			if st.Type != "" && v == value {
				vs = append(vs, st.PassAt1)
			}
		}
	}
	return vs
}

// labelScores returns the pass@1 of every scored task whose label key is
// value; it needs the tasks for their labels.
func labelScores(r *report.Report, tasks map[string]*adapt.Task, key, value string) []float64 {
	var vs []float64
	for _, tr := range r.PerTask {
		t := tasks[tr.TaskID]
		if tr.N == 0 || t == nil || t.Labels[key] != value {
			continue
		}
		vs = append(vs, passAt(tr.N, tr.C, 1))
	}
	return vs
}

func barOf(run string, what string, vs []float64) plotBar {
	m, lo, hi, ci, ok := meanCI(vs)
	if !ok {
		return plotBar{Absent: true}
	}
	return plotBar{Value: m, Lo: lo, Hi: hi, HasCI: ci, N: len(vs), Tip: fmt.Sprintf("%s, %s: %s over %d", run, what, pctCI(m, lo, hi, ci), len(vs))}
}

// htmlPlot is one plot of the page, with its SVG as a data URL that the
// page offers for download (a figure for a paper).
type htmlPlot struct {
	SVG  template.HTML
	Href template.URL
	File string
	// Wide plots (more than 8 groups) take the page's whole width.
	Wide bool
}

func plotOf(svg, name string) htmlPlot {
	return htmlPlot{
		SVG: template.HTML(svg),
		// The SVG is ours, drawn above with every text escaped.
		Href: template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg))),
		File: name + ".svg",
	}
}

// widePlot marks p wide when its groups crowd half the page (wideGroups,
// by which facetChart draws it wide too).
func widePlot(p htmlPlot, groups, series int) htmlPlot {
	p.Wide = wideGroups(groups, series)
	return p
}

// htmlPlots draws the report's plots: pass@k, then pass@1 by each
// breakdown dimension (the task labels as one faceted figure), then the
// degradation from parents to derived tasks.
func htmlPlots(runs []*report.Report, tasks map[string]*adapt.Task, baseline *report.Report) []htmlPlot {
	names := runLabels(runs)
	var plots []htmlPlot
	var groups []plotGroup
	for _, k := range allKs(runs) {
		g := plotGroup{Label: fmt.Sprintf("pass@%d", k)}
		for i, r := range runs {
			g.Bars = append(g.Bars, barOf(names[i], g.Label, taskScores(r, k)))
		}
		groups = append(groups, g)
	}
	if len(groups) > 0 {
		plots = append(plots, widePlot(plotOf(barChart("Task-level pass@k (95% bootstrap CI)", "pass@k", names, groups), "pass-at-k"), len(groups), len(names)))
	}
	if len(runs) == 1 {
		// A single run's page: the outcomes of its samples beside its
		// scores, not one lone bar.
		var labels []string
		var counts []int
		for _, o := range report.Outcomes {
			if n := runs[0].Outcomes[o]; n > 0 {
				labels, counts = append(labels, o.String()), append(counts, n)
			}
		}
		if len(labels) > 0 {
			plots = append(plots, plotOf(hbarChart("Outcomes of the samples", labels, counts), "outcomes"))
		}
	}
	// Breakdown dimensions, in the order the reports give them.
	var dims []string
	values := map[string][]string{}
	for _, r := range runs {
		for _, bd := range r.Breakdowns {
			if !slices.Contains(dims, bd.By) {
				dims = append(dims, bd.By)
			}
			if !slices.Contains(values[bd.By], bd.Value) {
				values[bd.By] = append(values[bd.By], bd.Value)
			}
		}
	}
	var labelFacets []facet
	for _, dim := range dims {
		vals := slices.Sorted(slices.Values(values[dim]))
		if len(vals) > 30 {
			vals = vals[:30]
		}
		var groups []plotGroup
		for _, v := range vals {
			g := plotGroup{Label: v}
			for i, r := range runs {
				var vs []float64
				if key, ok := strings.CutPrefix(dim, "label:"); ok {
					vs = labelScores(r, tasks, key, v)
				} else {
					vs = stepScores(r, dim, v)
				}
				g.Bars = append(g.Bars, barOf(names[i], v, vs))
			}
			groups = append(groups, g)
		}
		if key, ok := strings.CutPrefix(dim, "label:"); ok {
			labelFacets = append(labelFacets, facet{Name: key, Groups: groups})
			continue
		}
		plots = append(plots, widePlot(plotOf(barChart("pass@1 by adaptation "+dim+" (95% CI)", "pass@1", names, groups), "pass-at-1-by-"+dim), len(groups), len(names)))
	}
	if len(labelFacets) > 0 {
		title := "pass@1 by task label (95% CI)"
		if len(labelFacets) == 1 {
			title = "pass@1 by task label " + labelFacets[0].Name + " (95% CI)"
			labelFacets[0].Name = ""
		}
		n := 0
		for _, f := range labelFacets {
			n += len(f.Groups)
		}
		plots = append(plots, widePlot(plotOf(facetChart(title, "pass@1", names, labelFacets), "pass-at-1-by-label"), n, len(names)))
	}
	if d := degradationPlot(runs[0], tasks, baseline); d != "" {
		plots = append(plots, plotOf(d, "degradation"))
	}
	return plots
}

// degradationPlot sets the pass@1 of each derived task's parent beside
// its own, by generator and operators, over the tasks whose parent has a
// score; "" when there are none.
func degradationPlot(r *report.Report, tasks map[string]*adapt.Task, baseline *report.Report) string {
	if baseline == nil {
		baseline = r
	}
	parent := map[string]report.TaskReport{}
	for _, tr := range baseline.PerTask {
		parent[tr.TaskID] = tr
	}
	type pair struct{ orig, derived []float64 }
	by := map[string]*pair{}
	add := func(g string, o, d float64) {
		p := by[g]
		if p == nil {
			p = &pair{}
			by[g] = p
		}
		p.orig, p.derived = append(p.orig, o), append(p.derived, d)
	}
	for _, tr := range r.PerTask {
		t := tasks[tr.TaskID]
		if t == nil || t.Provenance == nil || t.Provenance.Parent == "" || tr.N == 0 {
			continue
		}
		pt, ok := parent[t.Provenance.Parent]
		if !ok || pt.N == 0 {
			continue
		}
		o, d := passAt(pt.N, pt.C, 1), passAt(tr.N, tr.C, 1)
		add("all", o, d)
		g := t.Provenance.Generator
		if len(t.Provenance.Operators) > 0 {
			g += ": " + strings.Join(t.Provenance.Operators, "+")
		}
		add(g, o, d)
	}
	if len(by) == 0 {
		return ""
	}
	keys := slices.Sorted(maps.Keys(by))
	keys = slices.DeleteFunc(keys, func(k string) bool { return k == "all" })
	if len(keys) > 15 {
		// The most populous groups.
		slices.SortStableFunc(keys, func(a, b string) int { return len(by[b].orig) - len(by[a].orig) })
		keys = keys[:15]
		slices.Sort(keys)
	}
	keys = append([]string{"all"}, keys...)
	var groups []plotGroup
	for _, k := range keys {
		p := by[k]
		groups = append(groups, plotGroup{Label: fmt.Sprintf("%s (%d)", k, len(p.orig)), Bars: []plotBar{
			barOf("original", k, p.orig), barOf("derived", k, p.derived),
		}})
	}
	return barChart("Degradation: pass@1 of the original task and the derived one (95% CI)", "pass@1", []string{"original (parent)", "derived"}, groups)
}

func htmlSectionOf(s report.Section) htmlSection {
	out := htmlSection{Title: s.Title}
	for _, p := range strings.Split(strings.TrimSpace(s.Text), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out.Paras = append(out.Paras, p)
		}
	}
	if s.Scatter != nil {
		out.Plots = append(out.Plots, plotOf(scatterChart(s.Title, s.Scatter), fileName(s.Title)))
	}
	if s.Funnel != nil {
		title := s.Title
		if s.Scatter != nil {
			title = "funnel"
		}
		out.Plots = append(out.Plots, plotOf(funnelChart(title, s.Funnel, s.Branches), fileName(s.Title+" funnel")))
	}
	if f := s.Funnel; f != nil {
		out.Funnel = &htmlTable{Head: append([]string{"group"}, f.Stages()...), Rows: funnelRows(f)}
	}
	return out
}

// The explorer's data: compact JSON keys keep 800 samples in a few MB.
type htmlData struct {
	Runs     []string   `json:"runs,omitempty"` // with Options.Runs: every run's label, this report's first
	Outcomes []string   `json:"outcomes"`
	Tasks    []htmlTask `json:"tasks"`
}

type htmlTask struct {
	ID string `json:"id"`
	htmlRun
	// Runs are the other runs' results for this task (Options.Runs),
	// null where a run does not hold it.
	Runs   []*htmlRun        `json:"runs,omitempty"`
	Cats   []string          `json:"cats,omitempty"`
	Types  []string          `json:"types,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
	Lang   string            `json:"lang,omitempty"`
	Req    string            `json:"req,omitempty"`
	Steps  []htmlStep        `json:"steps,omitempty"`
	Prompt string            `json:"prompt,omitempty"`
	Code   string            `json:"code,omitempty"`
	Ref    string            `json:"ref,omitempty"`
	Target string            `json:"target,omitempty"`
	Prov   *htmlProv         `json:"prov,omitempty"`
}

// htmlRun is one run's results for a task.
type htmlRun struct {
	Status  string       `json:"status"` // valid, invalid, unscored
	Reason  string       `json:"reason,omitempty"`
	N       int          `json:"n"`
	C       int          `json:"c"`
	P1      *float64     `json:"p1,omitempty"`
	Gold    *htmlSample  `json:"gold,omitempty"`
	Samples []htmlSample `json:"samples"`
}

type htmlStep struct {
	ID    string  `json:"id"`
	Type  string  `json:"type,omitempty"`
	Desc  string  `json:"desc,omitempty"`
	Tests int     `json:"tests"`
	P1    float64 `json:"p1"`
	Run   bool    `json:"run"`
}

type htmlProv struct {
	Generator string   `json:"gen"`
	Parent    string   `json:"parent,omitempty"`
	Operators []string `json:"ops,omitempty"`
	Seed      uint64   `json:"seed"`
	Source    string   `json:"source,omitempty"`
	Schema    string   `json:"schema,omitempty"`
	Detail    string   `json:"detail,omitempty"`
}

type htmlSample struct {
	Sample  int        `json:"i"`
	Outcome string     `json:"o"`
	Detail  string     `json:"detail,omitempty"`
	Comp    string     `json:"comp,omitempty"`
	Reason  string     `json:"reasoning,omitempty"`
	Code    string     `json:"code,omitempty"`
	Same    bool       `json:"same,omitempty"` // Code is the completion
	DiffRef string     `json:"dref,omitempty"`
	DiffOrg string     `json:"dorig,omitempty"`
	Tests   []htmlTest `json:"tests,omitempty"`
	Rounds  int        `json:"rounds,omitempty"`
	Tokens  int        `json:"tokens,omitempty"`
}

type htmlTest struct {
	Name    string `json:"n"`
	Status  string `json:"s"`
	Type    string `json:"e,omitempty"`
	Message string `json:"m,omitempty"`
}

// maxDiffInput bounds the texts diffed, so that a huge completion costs
// a bounded diff; what is shown is cut to MaxText anyway.
const maxDiffInput = 64 << 10

func htmlDataOf(runs []*report.Report, tasks map[string]*adapt.Task, o *Options) ([]byte, error) {
	cut := func(s string) string { return cutText(s, o.MaxText) }
	r := runs[0]
	d := htmlData{Tasks: []htmlTask{}}
	if len(runs) > 1 {
		d.Runs = runLabels(runs)
	}
	for _, oc := range report.Outcomes {
		d.Outcomes = append(d.Outcomes, oc.String())
	}
	results := make([]func(string) *htmlRun, len(runs))
	for i, rr := range runs {
		results[i] = runResults(rr, tasks, cut)
	}
	for _, tr := range r.PerTask {
		ht := htmlTask{ID: tr.TaskID, htmlRun: *results[0](tr.TaskID)}
		for _, rest := range results[1:] {
			ht.Runs = append(ht.Runs, rest(tr.TaskID))
		}
		t := tasks[tr.TaskID]
		for _, st := range tr.Steps {
			ht.Steps = append(ht.Steps, htmlStep{ID: st.ID, Type: st.Type, Tests: st.Tests, P1: st.PassAt1, Run: true})
		}
		if t != nil {
			describe(&ht, t, o, cut)
		}
		d.Tasks = append(d.Tasks, ht)
	}
	// json.Marshal escapes <, > and & (and U+2028, U+2029), so nothing in
	// the data can close the script element that holds it.
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("htmlreport: the explorer's data: %w", err)
	}
	return b, nil
}

// runResults returns what the explorer shows of a report's results for a
// task ID: its status, counts and samples; nil for a task the report does
// not hold.
func runResults(r *report.Report, tasks map[string]*adapt.Task, cut func(string) string) func(string) *htmlRun {
	invalid := map[string]report.InvalidTask{}
	for _, it := range r.Invalid {
		invalid[it.TaskID] = it
	}
	unscored := map[string]string{}
	for _, u := range r.Unscored {
		unscored[u.TaskID] = u.Reason
	}
	byID := map[string]*report.TaskReport{}
	for i := range r.PerTask {
		byID[r.PerTask[i].TaskID] = &r.PerTask[i]
	}
	return func(id string) *htmlRun {
		tr := byID[id]
		if tr == nil {
			return nil
		}
		hr := &htmlRun{Status: "valid", N: tr.N, C: tr.C, Samples: []htmlSample{}}
		if it, ok := invalid[id]; ok {
			hr.Status, hr.Reason = "invalid", it.Reason
			if it.Result != nil {
				g := sampleOf(*it.Result, nil, cut)
				hr.Gold = &g
			}
		} else if why, ok := unscored[id]; ok {
			hr.Status, hr.Reason = "unscored", why
		}
		if tr.N > 0 {
			p := passAt(tr.N, tr.C, 1)
			hr.P1 = &p
		}
		for _, s := range tr.Samples {
			hr.Samples = append(hr.Samples, sampleOf(s, tasks[id], cut))
		}
		return hr
	}
}

// describe fills in what the explorer shows of the task itself.
func describe(ht *htmlTask, t *adapt.Task, o *Options, cut func(string) string) {
	ht.Labels, ht.Lang, ht.Req = t.Labels, t.Language, t.Requirement.Task
	ht.Code, ht.Ref, ht.Target = cut(t.Code), cut(t.Reference), t.Target.Path
	if t.Target.Function != "" {
		ht.Target += ": " + t.Target.Function
	}
	for _, st := range t.Requirement.Steps {
		if st.Type != "" {
			if c := st.Category(); !slices.Contains(ht.Cats, c) {
				ht.Cats = append(ht.Cats, c)
			}
			if !slices.Contains(ht.Types, st.Type) {
				ht.Types = append(ht.Types, st.Type)
			}
		}
		i := slices.IndexFunc(ht.Steps, func(s htmlStep) bool { return s.ID == st.ID })
		if i < 0 {
			ht.Steps = append(ht.Steps, htmlStep{ID: st.ID, Type: st.Type, Tests: len(t.StepTests(st.ID))})
			i = len(ht.Steps) - 1
		}
		ht.Steps[i].Desc = st.Description
	}
	if o.Template != nil {
		if msgs, err := o.Template.Render(t); err == nil {
			var b strings.Builder
			for _, m := range msgs {
				fmt.Fprintf(&b, "── %s ──\n%s\n", m.Role, m.Content)
			}
			ht.Prompt = cut(b.String())
		} else {
			ht.Prompt = "(the prompt could not be rendered: " + err.Error() + ")"
		}
	}
	if p := t.Provenance; p != nil {
		hp := &htmlProv{Generator: p.Generator, Parent: p.Parent, Operators: p.Operators, Seed: p.Seed, Source: p.Source, Schema: p.Schema}
		if len(p.Detail) > 0 {
			hp.Detail = cut(readableJSON(p.Detail))
		}
		ht.Prov = hp
	}
}

// readableJSON indents a generator's provenance detail for reading, with
// each array of numbers, strings or booleans kept on one line (indented
// JSON puts every number of a list on a line of its own).
func readableJSON(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	var b strings.Builder
	writeReadable(&b, v, "")
	return b.String()
}

func writeReadable(b *strings.Builder, v any, indent string) {
	scalar := func(x any) string {
		var j bytes.Buffer
		enc := json.NewEncoder(&j)
		// Escaped once, where the data is embedded in the page.
		enc.SetEscapeHTML(false)
		enc.Encode(x)
		return strings.TrimSuffix(j.String(), "\n")
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(indent + "  " + scalar(k) + ": ")
			writeReadable(b, x[k], indent+"  ")
		}
		b.WriteString("\n" + indent + "}")
	case []any:
		flat := !slices.ContainsFunc(x, func(e any) bool {
			switch e.(type) {
			case map[string]any, []any:
				return true
			}
			return false
		})
		if flat {
			parts := make([]string, len(x))
			for i, e := range x {
				parts[i] = scalar(e)
			}
			b.WriteString("[" + strings.Join(parts, ", ") + "]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(indent + "  ")
			writeReadable(b, e, indent+"  ")
		}
		b.WriteString("\n" + indent + "]")
	default:
		b.WriteString(scalar(x))
	}
}

func sampleOf(s report.SampleResult, t *adapt.Task, cut func(string) string) htmlSample {
	hs := htmlSample{Sample: s.Sample, Outcome: s.Outcome.String(), Detail: cut(s.Detail), Rounds: len(s.Rounds),
		Tokens: s.Usage.PromptTokens + s.Usage.CompletionTokens}
	if c := s.Completion; c != nil {
		hs.Comp, hs.Reason = cut(c.Text), cut(c.Reasoning)
		if c.Err != "" && hs.Detail == "" {
			hs.Detail = cut(c.Err)
		}
	}
	if s.Code != "" {
		if s.Completion != nil && s.Code == s.Completion.Text {
			hs.Same = true
		} else {
			hs.Code = cut(s.Code)
		}
		if t != nil {
			code := headOf(s.Code)
			hs.DiffRef = cut(textkit.Unified("reference", "sample", headOf(t.Reference), code, 3))
			hs.DiffOrg = cut(textkit.Unified("original code", "sample", headOf(t.Code), code, 3))
		}
	}
	for _, tc := range s.Tests {
		hs.Tests = append(hs.Tests, htmlTest{Name: tc.Name, Status: tc.Status.String(), Type: tc.ErrorType, Message: cut(tc.Message)})
	}
	return hs
}

func headOf(s string) string {
	if len(s) <= maxDiffInput {
		return s
	}
	s = s[:maxDiffInput]
	for !utf8.ValidString(s) && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s
}

// cutText keeps the head and tail of a text longer than limit bytes, on
// rune boundaries, with a marker saying how many bytes were cut.
func cutText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	h, t := limit/2, len(s)-limit/2
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	return s[:h] + "\n\n[… " + strconv.Itoa(t-h) + " bytes cut: " + strconv.Itoa(len(s)) + " in all …]\n\n" + s[t:]
}
