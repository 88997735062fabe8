package adapteval

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/syntax"
	"github.com/adaptbench/adaptbench/metrics"
)

// errUnsupported is wrapped when obfuscate is asked for a language other
// than Python.
var errUnsupported = errors.New("adapteval: unsupported")

// errSyntax is wrapped when the code to obfuscate does not parse.
var errSyntax = errors.New("adapteval: code does not parse")

// obfuscatedSuffix is added to the ID of a task's obfuscated variant.
const obfuscatedSuffix = "/obfuscated"

// obfuscate renames the parameters and local variables of every function
// of code (lambdas and comprehensions included) to var_0, var_1, … in the
// order they first appear, as the artifact's obfuscated-version/ does for
// the leakage probe of the paper (§VI-A), and returns the new code with the
// map back (obfuscated name → original). Function and class names, self
// and cls, names declared global, imported names, module-level names,
// attributes, keyword-argument names and the text of strings and comments
// (docstrings too) are left alone; a name that is local in several
// functions gets one new name. Numbers of the var_N words the code already
// has (in names, strings or comments) are skipped.
//
// Limits: a keyword argument that names a renamed parameter of a function
// defined in code (f(x=1) calling a nested def f(x)) is not renamed.
func obfuscate(lang, code string) (string, map[string]string, error) {
	if lang != adapt.Python {
		return "", nil, fmt.Errorf("%w: obfuscating %s", errUnsupported, lang)
	}
	root, err := syntax.ParseNodes(syntax.Python, []byte(code))
	if err != nil {
		return "", nil, err
	}
	if root.Err {
		return "", nil, fmt.Errorf("%w", errSyntax)
	}
	src := []byte(code)
	occ := locals(root, src)
	// Number the names by first appearance, skipping taken numbers.
	// A var_N anywhere in the code (an identifier, a word of a string or
	// comment) keeps its number, so that the map back is exact.
	taken := map[string]bool{}
	for _, w := range varName.FindAllString(code, -1) {
		taken[w] = true
	}
	names := map[string]string{}
	back := map[string]string{}
	next := 0
	for _, o := range occ {
		old := o.Node.Text(src)
		if _, ok := names[old]; ok {
			continue
		}
		for taken["var_"+strconv.Itoa(next)] {
			next++
		}
		n := "var_" + strconv.Itoa(next)
		next++
		names[old] = n
		back[n] = old
	}
	edits := make([]syntax.TextEdit, len(occ))
	for i, o := range occ {
		edits[i] = syntax.TextEdit{Start: o.Node.Start, End: o.Node.End, Text: names[o.Node.Text(src)]}
	}
	out, _, err := syntax.ApplyEdits(src, edits)
	if err != nil {
		return "", nil, fmt.Errorf("adapteval: obfuscating: %w", err)
	}
	return string(out), back, nil
}

// locals returns the occurrences to rename, in source order: those of the
// parameters and local variables of functions, lambdas and of
// comprehensions inside functions (see syntax.PyScopes), but not function
// and class names, imported names, self and cls.
func locals(root *syntax.Node, src []byte) []syntax.Ref {
	return syntax.PyScopes(root, src).Locals(func(sym *syntax.Symbol) bool {
		return sym.Defined || sym.Imported || sym.Name == "self" || sym.Name == "cls"
	})
}

var varName = regexp.MustCompile(`\bvar_[0-9]+\b`)

// deobfuscate maps the var_N names of code back to the originals (m maps
// obfuscated → original, as obfuscate returns it), by whole words, as the
// artifact's probe does with a model's answer. deobfuscate(obfuscate(x))
// is x.
func deobfuscate(code string, m map[string]string) string {
	if len(m) == 0 {
		return code
	}
	return varName.ReplaceAllStringFunc(code, func(s string) string {
		if o, ok := m[s]; ok {
			return o
		}
		return s
	})
}

// ObfuscatedTasks returns the obfuscated variant of each task: its snippet
// (Task.Code) obfuscated, everything else the same, the ID suffixed with
// "/obfuscated" and the provenance saying so (generator
// "adapteval-obfuscate", parent the original task). The Probe holds the maps
// back; evaluate the variants with Probe.Model so that the answers get
// their original names back before they are tested. A task whose snippet
// cannot be obfuscated (it does not parse, or has no parameter or local to
// rename) has no variant and is listed in Probe.Skipped.
func ObfuscatedTasks(tasks []adapt.Task) ([]adapt.Task, *Probe) {
	p := &Probe{renames: map[string]map[string]string{}, Skipped: map[string]string{}}
	var out []adapt.Task
	for _, t := range tasks {
		code, back, err := obfuscate(t.Language, t.Code)
		switch {
		case err != nil:
			p.Skipped[t.ID] = err.Error()
			continue
		case len(back) == 0:
			p.Skipped[t.ID] = "no parameter or local variable to rename"
			continue
		}
		v := t
		v.ID = t.ID + obfuscatedSuffix
		v.Code = code
		prov := &adapt.Provenance{Generator: generator + "-obfuscate", Parent: t.ID, Operators: []string{"rename-locals"}}
		if t.Provenance != nil {
			prov.Source = t.Provenance.Source
		}
		v.Provenance = prov
		p.renames[v.ID] = back
		out = append(out, v)
	}
	return out, p
}

// Probe holds what the leakage probe needs to evaluate obfuscated
// variants: the map back of each variant.
type Probe struct {
	// Maps holds, by variant task ID, the map obfuscated → original name.
	renames map[string]map[string]string
	// Skipped holds, by task ID, why a task has no variant.
	Skipped map[string]string
}

// Model wraps m so that the completions for a variant come back with the
// original names (deobfuscate), as the artifact maps the answers back
// before testing them. The journal of an evaluation then holds the mapped
// answers. Completions for other tasks are untouched.
func (p *Probe) Model(m adapt.Model) adapt.Model { return probeModel{m, p} }

type probeModel struct {
	adapt.Model
	p *Probe
}

func (pm probeModel) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	comps, err := pm.Model.Complete(ctx, req)
	if req.Task == nil {
		return comps, err
	}
	if m := pm.p.renames[req.Task.ID]; m != nil {
		for i := range comps {
			comps[i].Text = deobfuscate(comps[i].Text, m)
		}
	}
	return comps, err
}

// Leakage is the result of the leakage probe: the scores of the original
// tasks and of their obfuscated variants over the pairs both valid.
type Leakage struct {
	// Pairs counts the tasks valid in both runs; Adaptations their
	// adaptations with tests.
	Pairs       int `json:"pairs"`
	Adaptations int `json:"adaptations"`
	// Original and Obfuscated are pass@1-t over the pairs; Delta is
	// Obfuscated − Original and Relative is Delta / Original (the paper's
	// "−2.45 (−4.14%)").
	Original   float64 `json:"original"`
	Obfuscated float64 `json:"obfuscated"`
	Delta      float64 `json:"delta"`
	Relative   float64 `json:"relative"`
	// CI95 is a seeded bootstrap 95% interval of Delta (paired by task).
	CI95 *metrics.Interval `json:"ci95,omitempty"`
	// The same for pass@1-a, exact, over the adaptations with tests of the
	// pairs.
	OriginalAdapt   float64 `json:"original_adapt"`
	ObfuscatedAdapt float64 `json:"obfuscated_adapt"`
	DeltaAdapt      float64 `json:"delta_adapt"`
	RelativeAdapt   float64 `json:"relative_adapt"`
}

// Delta compares the report of the original tasks with that of their
// obfuscated variants (IDs with obfuscatedSuffix), pairing each task with
// its variant and keeping the pairs valid in both.
func Delta(orig, obf *report.Report) Leakage {
	var l Leakage
	variants := map[string]report.TaskReport{}
	for _, tr := range obf.PerTask {
		if id, ok := strings.CutSuffix(tr.TaskID, obfuscatedSuffix); ok && tr.Valid {
			variants[id] = tr
		}
	}
	var diffs []float64
	var sa, sb, aa, ab float64
	for _, tr := range orig.PerTask {
		v, ok := variants[tr.TaskID]
		if !ok || !tr.Valid {
			continue
		}
		a, b := pass1(tr.N, tr.C), pass1(v.N, v.C)
		sa += a
		sb += b
		diffs = append(diffs, b-a)
		vs := map[string]report.StepReport{}
		for _, s := range v.Steps {
			vs[s.ID] = s
		}
		for _, s := range tr.Steps {
			w, ok := vs[s.ID]
			if !ok {
				continue
			}
			aa += s.PassAt1
			ab += w.PassAt1
			l.Adaptations++
		}
	}
	l.Pairs = len(diffs)
	if l.Pairs == 0 {
		return l
	}
	l.Original, l.Obfuscated = sa/float64(l.Pairs), sb/float64(l.Pairs)
	l.Delta = l.Obfuscated - l.Original
	if l.Original != 0 {
		l.Relative = l.Delta / l.Original
	}
	if l.Adaptations > 0 {
		l.OriginalAdapt, l.ObfuscatedAdapt = aa/float64(l.Adaptations), ab/float64(l.Adaptations)
		l.DeltaAdapt = l.ObfuscatedAdapt - l.OriginalAdapt
		if l.OriginalAdapt != 0 {
			l.RelativeAdapt = l.DeltaAdapt / l.OriginalAdapt
		}
	}
	if len(diffs) > 1 {
		if ci, err := metrics.BootstrapMean(diffs, 2000, 0.95, 1); err == nil {
			l.CI95 = &ci
		}
	}
	return l
}

// String formats the probe's result as the paper's Table IX does: deltas
// in points, relative changes in parentheses.
func (l Leakage) String() string {
	return fmt.Sprintf("%d pairs: pass@1-t %.2f → %.2f, Δ %+.2f (%+.2f%%); pass@1-a %.2f → %.2f, Δ %+.2f (%+.2f%%)",
		l.Pairs, 100*l.Original, 100*l.Obfuscated, 100*l.Delta, 100*l.Relative,
		100*l.OriginalAdapt, 100*l.ObfuscatedAdapt, 100*l.DeltaAdapt, 100*l.RelativeAdapt)
}

// CDDParams are the parameters of CDD, the contamination detector of the
// leakage probe (see CDD).
type CDDParams struct {
	// Alpha (α) is how far, as a share of l (the length in tokens of the
	// longest of the reference and the samples), a sample may be from the
	// reference and still count as a near copy: edit distance ≤ α·l.
	Alpha float64 `json:"alpha"`
	// Xi (ξ): a task is flagged when the share of its samples that are
	// near copies (its peak) exceeds ξ.
	Xi float64 `json:"xi"`
	// MaxTokens is how many tokens of each text, from its start, are
	// compared; 0 or less compares whole texts. (The zero CDDParams as a
	// whole means CDDPaper, which cuts at 100.)
	MaxTokens int `json:"max_tokens"`
}

// The parameters of CDD as its authors publish them (Dong et al. 2024,
// "Generalization or Memorization: Data Contamination and Trustworthy
// Evaluation for Large Language Models", and their CDD.py): α = 0.05 and
// ξ = 0.01 by default (the setting of their DetCon benchmark), each text
// cut to its first 100 tokens; and for models without labels, such as
// ChatGPT on HumanEval (the 41% Leak Ratio AdaptEval compares with),
// α = 0 — only exact copies count — and ξ = 0.2 "to enhance the detection
// precision". AdaptEval does not say which it used.
var (
	CDDPaper     = CDDParams{Alpha: 0.05, Xi: 0.01, MaxTokens: 100}
	CDDRealWorld = CDDParams{Alpha: 0, Xi: 0.2, MaxTokens: 100}
)

// cddTokenizer names the tokens CDD's edit distance counts here.
const cddTokenizer = "cl100k_base"

// Where CDD's reference output comes from (CDDReport.Reference).
const (
	cddGroundTruth = "ground truth"
	cddGreedy      = "greedy answer"
)

// CDDOptions configure CDD. The zero value is the paper's reading: CDDPaper
// against the ground truth.
type CDDOptions struct {
	// Params are α, ξ and the cut; the zero value means CDDPaper.
	Params CDDParams
	// Greedy, when set, is a report of the same tasks sampled greedily
	// (temperature 0, one sample): each task's reference is then its
	// greedy answer, as CDD defines it, instead of its ground truth.
	Greedy *report.Report
}

// CDDTask is one task's result.
type CDDTask struct {
	Task string `json:"task"`
	// Samples counts the samples measured.
	Samples int `json:"samples"`
	// Peak holds the edit distances of the samples to the reference in
	// tokens, l, how many are within α·l and their share (the peak).
	metrics.Peak
	// Flagged: the peak exceeds ξ.
	Flagged bool `json:"flagged"`
}

// CDDReport is the result of CDD over a run: which tasks are flagged and
// the Leak Ratio of Table IX.
type CDDReport struct {
	Params CDDParams `json:"params"`
	// Reference is what the samples are compared with: cddGroundTruth or
	// cddGreedy.
	Reference string `json:"reference"`
	// Tokenizer is cddTokenizer.
	Tokenizer string `json:"tokenizer"`
	// Tasks counts the tasks given: 164 for the whole benchmark, the
	// paper's denominator. Scored counts those measured (N): the tasks
	// with at least one sample the model answered. Flagged counts the
	// scored tasks whose peak exceeds ξ.
	Tasks   int `json:"tasks"`
	Scored  int `json:"scored"`
	Flagged int `json:"flagged"`
	// Ratio is the Leak Ratio, Flagged / Scored (0 when none is scored).
	Ratio float64 `json:"ratio"`
	// PerTask holds the scored tasks, in the order of the report.
	PerTask []CDDTask `json:"per_task"`
	// Skipped holds, by task ID, why a task given is not scored.
	Skipped map[string]string `json:"skipped,omitempty"`
}

// CDD runs CDD (Contamination Detection via output Distribution, Dong et
// al. 2024) over the samples of a run, as the paper's leakage probe does
// (§VI-A, Table IX: "we check whether the sampled outputs of our used LLMs
// are highly similar to the possibly leaked data"). For each task of rep
// it compares every sample's answer with the task's ground truth
// (Task.Reference, the adapted function; with opts.Greedy, the task's
// greedy answer instead), as token sequences: the edit distance of each
// sample to the reference, l the longest length, and the task's peak, the
// share of samples within α·l (metrics.Peakedness). A task is flagged when
// its peak exceeds ξ; the Leak Ratio is the share of the scored tasks
// flagged (the paper's 1.22% is 2 of 164). The paper states neither its
// parameters, its samples nor its tokenizer: the defaults are CDD's own
// (CDDPaper), and the samples are the run's. With n = 5 and ξ = 0.01 one
// near copy among the five flags a task. A run without the full
// environments measures fewer tasks (CDDReport says how many); adapt.Draw
// samples every task without testing any.
//
// What is compared: each sample's first answer (the one before any repair
// round), as the code taken from it (SampleResult.Code, the function that
// was spliced in and tested; for a report of adapt.Draw, which checks
// nothing, adapt.Extract's result); a sample from which no code could be
// taken is the empty sequence, at its maximal distance. Samples the model
// failed (OutcomeModelError) have no answer and are left out; the tests'
// verdicts play no part. Texts are trimmed of surrounding white space,
// encoded with cl100k_base (ordinary text) and cut to their first
// Params.MaxTokens tokens, as CDD's code does with the tiktoken encoding of
// GPT-4. Tasks without samples (the invalid ones: Evaluate draws no sample
// for a task whose reference fails) are listed in Skipped and left out of
// the ratio.
//
// The result is the same for the same inputs. The error says which task
// of rep is not among tasks, or what is wrong with the parameters.
func CDD(rep *report.Report, tasks []adapt.Task, opts CDDOptions) (*CDDReport, error) {
	p := opts.Params
	if p == (CDDParams{}) {
		p = CDDPaper
	}
	if !(p.Alpha >= 0 && p.Alpha <= 1) || !(p.Xi >= 0 && p.Xi <= 1) {
		return nil, fmt.Errorf("adapteval: CDD: α = %v and ξ = %v must both be in [0, 1]", p.Alpha, p.Xi)
	}
	byID := make(map[string]*adapt.Task, len(tasks))
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	out := &CDDReport{Params: p, Reference: cddGroundTruth, Tokenizer: cddTokenizer, Tasks: len(tasks), Skipped: map[string]string{}}
	var greedy map[string]string
	if opts.Greedy != nil {
		out.Reference = cddGreedy
		greedy = greedyAnswers(opts.Greedy, byID)
	}
	enc, err := cl100k()
	if err != nil {
		return nil, err
	}
	tokens := func(s string) []int {
		toks := enc.EncodeOrdinary(strings.TrimSpace(s))
		if p.MaxTokens > 0 && len(toks) > p.MaxTokens {
			toks = toks[:p.MaxTokens]
		}
		return toks
	}
	invalid := map[string]string{}
	for _, it := range rep.Invalid {
		invalid[it.TaskID] = it.Reason
	}
	seen := map[string]bool{}
	for _, tr := range rep.PerTask {
		t, ok := byID[tr.TaskID]
		if !ok {
			return nil, fmt.Errorf("adapteval: CDD: the report's task %q is not among the tasks", tr.TaskID)
		}
		seen[tr.TaskID] = true
		ref := t.Reference
		if greedy != nil {
			if ref, ok = greedy[tr.TaskID]; !ok {
				out.Skipped[tr.TaskID] = "no greedy answer with code"
				continue
			}
		}
		var samples [][]int
		for _, sr := range tr.Samples {
			if code, ok := answerCode(t, sr); ok {
				samples = append(samples, tokens(code))
			}
		}
		if len(samples) == 0 {
			out.Skipped[tr.TaskID] = noSamplesReason(tr, invalid)
			continue
		}
		peak, err := metrics.Peakedness(tokens(ref), samples, p.Alpha)
		if err != nil {
			return nil, fmt.Errorf("adapteval: CDD: task %s: %w", tr.TaskID, err)
		}
		ct := CDDTask{Task: tr.TaskID, Samples: len(samples), Peak: peak, Flagged: peak.Value > p.Xi}
		out.PerTask = append(out.PerTask, ct)
		out.Scored++
		if ct.Flagged {
			out.Flagged++
		}
	}
	for _, t := range tasks {
		if !seen[t.ID] {
			out.Skipped[t.ID] = "not in the report"
		}
	}
	if out.Scored > 0 {
		out.Ratio = float64(out.Flagged) / float64(out.Scored)
	}
	return out, nil
}

// greedyAnswers are the code of each task's first greedy answer that has
// code, by task ID: the references of CDD proper.
func greedyAnswers(greedy *report.Report, byID map[string]*adapt.Task) map[string]string {
	out := map[string]string{}
	for _, tr := range greedy.PerTask {
		if t := byID[tr.TaskID]; t != nil {
			for _, sr := range tr.Samples {
				if code, ok := answerCode(t, sr); ok && code != "" {
					out[tr.TaskID] = code
					break
				}
			}
		}
	}
	return out
}

// noSamplesReason says why CDD has no sample of a task to measure.
func noSamplesReason(tr report.TaskReport, invalid map[string]string) string {
	if r, bad := invalid[tr.TaskID]; bad {
		return "no samples: the task is invalid (" + r + ")"
	}
	if len(tr.Samples) == 0 {
		return "no samples"
	}
	return "no sample the model answered"
}

// answerCode returns the code of a sample's first answer, as CDD compares
// it, and whether the model answered at all: the code that was tested, or
// for a drawn sample (never checked) what adapt.Extract takes from it; ""
// when no code could be taken.
func answerCode(t *adapt.Task, sr report.SampleResult) (string, bool) {
	if len(sr.Rounds) > 0 {
		sr = sr.Rounds[0]
	}
	if sr.Outcome == report.OutcomeModelError || sr.Completion == nil {
		return "", false
	}
	if sr.Code != "" || sr.Outcome != report.OutcomeInvalid {
		return sr.Code, true
	}
	a, err := adapt.Extract(t, sr.Completion.Text)
	if err != nil {
		return "", true
	}
	return a.Code, true
}

// String formats the result as Table IX's Leak Ratio, with its counts and
// parameters.
func (r *CDDReport) String() string {
	s := fmt.Sprintf("CDD Leak Ratio %.2f%% = %d/%d tasks flagged (α=%g, ξ=%g, ", 100*r.Ratio, r.Flagged, r.Scored, r.Params.Alpha, r.Params.Xi)
	if r.Params.MaxTokens > 0 {
		s += fmt.Sprintf("first %d %s tokens", r.Params.MaxTokens, r.Tokenizer)
	} else {
		s += r.Tokenizer + " tokens"
	}
	s += ", against the " + r.Reference + ")"
	if r.Scored != r.Tasks {
		s += fmt.Sprintf("; %d of %d tasks not scored", r.Tasks-r.Scored, r.Tasks)
	}
	return s
}
