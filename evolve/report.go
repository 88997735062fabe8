package evolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Summary aggregates a Result the way the paper's Table 4 does: mean
// relative complexity and readability before (the originals) and after
// (the picks), over the programs whose run completed.
type Summary struct {
	// Programs is the number of subjects.
	Programs int
	// Runs is the number of subjects whose run completed (their original
	// passed its tests).
	Runs int
	// Evolved is the number of runs whose pick is not the original.
	Evolved int
	// Skipped is the number of subjects whose original failed its tests;
	// Errors the number that failed otherwise.
	Skipped, Errors int
	// RCBefore, RCAfter, RRBefore and RRAfter are means over the Runs.
	RCBefore, RCAfter, RRBefore, RRAfter float64
	// Evaluations and Tested are sums over the runs.
	Evaluations, Tested int
}

// Summary computes the summary, summing in subject order.
func (r *Result) Summary() Summary {
	var s Summary
	s.Programs = len(r.Evolutions)
	for _, res := range r.Evolutions {
		switch {
		case res.Err != nil && isOriginalFails(res.Err):
			s.Skipped++
			continue
		case res.Err != nil || len(res.Population) == 0:
			s.Errors++
			continue
		}
		s.Runs++
		if res.Best != 0 {
			s.Evolved++
		}
		s.RCBefore += res.Original().RC
		s.RCAfter += res.Evolved().RC
		s.RRBefore += res.Original().RR
		s.RRAfter += res.Evolved().RR
		s.Evaluations += res.Evaluations
		s.Tested += res.Tested
	}
	if s.Runs > 0 {
		n := float64(s.Runs)
		s.RCBefore, s.RCAfter, s.RRBefore, s.RRAfter = s.RCBefore/n, s.RCAfter/n, s.RRBefore/n, s.RRAfter/n
	}
	return s
}

// delta is the paper's Δ = (Aft − Bef)/Bef as a percentage, or "n/a" when
// Bef is 0.
func delta(before, after float64) string {
	if before == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%+.0f%%", 100*(after-before)/before)
}

// WriteTable writes the paper's Table 4 layout (RC and RR before, after
// and Δ) with one row per program and a last row, named name, with the
// means over the completed runs; skipped programs are listed with the
// reason. The text is for people and may change.
func (r *Result) WriteTable(w io.Writer, name string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Program\tRC Bef.\tRC Aft.\tΔ\tRR Bef.\tRR Aft.\tΔ\tOps\tEvals\tStop\t")
	for _, res := range r.Evolutions {
		if res.Err != nil || len(res.Population) == 0 {
			reason := "error"
			if isOriginalFails(res.Err) {
				reason = "skipped: original fails"
			}
			fmt.Fprintf(tw, "%s\t\t\t\t\t\t\t\t\t%s\t\n", res.Subject, reason)
			continue
		}
		o, e := res.Original(), res.Evolved()
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%s\t%.4f\t%.4f\t%s\t%d\t%d\t%s\t\n", res.Subject,
			o.RC, e.RC, delta(o.RC, e.RC), o.RR, e.RR, delta(o.RR, e.RR), len(res.Lineage(res.Best)), res.Evaluations, res.Stop)
	}
	s := r.Summary()
	fmt.Fprintf(tw, "%s (%d of %d evolved)\t%.4f\t%.4f\t%s\t%.4f\t%.4f\t%s\t\t%d\t\t\n", name, s.Evolved, s.Programs,
		s.RCBefore, s.RCAfter, delta(s.RCBefore, s.RCAfter), s.RRBefore, s.RRAfter, delta(s.RRBefore, s.RRAfter), s.Evaluations)
	return tw.Flush()
}

// A record is one line of the evolved benchmark in JSON Lines: the
// artifact's fields (instance, dataset, transformation, original code)
// and the run's lineage and measures. Its JSON keys are the file format
// (see WriteJSONL).
type record struct {
	Instance       string            `json:"instance"`
	Dataset        string            `json:"dataset"`
	Transformation string            `json:"transformation"`
	OriginalCode   string            `json:"original code"`
	ID             string            `json:"id"`
	Main           string            `json:"main"`
	Modules        map[string]string `json:"modules,omitempty"`
	Seed           uint64            `json:"seed"`
	Operators      []string          `json:"operators"`
	Lineage        []Step            `json:"lineage"`
	RCBefore       float64           `json:"rc_before"`
	RCAfter        float64           `json:"rc_after"`
	RRBefore       float64           `json:"rr_before"`
	RRAfter        float64           `json:"rr_after"`
	Evaluations    int               `json:"evaluations"`
	Generations    int               `json:"generations"`
	Stop           Stop              `json:"stop"`
}

// records returns one record per run of Evolved, in subject order; dataset
// names the benchmark ("humaneval"). The instance is the subject's ID
// with "/" replaced by "_", as in the artifact ("HumanEval_0").
func (r *Result) records(dataset string) []record {
	var out []record
	for res := range r.Evolved() {
		o, e := res.Original(), res.Evolved()
		rec := record{
			Instance:       strings.ReplaceAll(res.Subject, "/", "_"),
			Dataset:        dataset,
			Transformation: source(e.Program),
			OriginalCode:   source(o.Program),
			ID:             res.Subject,
			Main:           string(e.Program.Main),
			Seed:           res.Seed,
			Operators:      res.Operators(res.Best),
			Lineage:        res.Lineage(res.Best),
			RCBefore:       o.RC,
			RCAfter:        e.RC,
			RRBefore:       o.RR,
			RRAfter:        e.RR,
			Evaluations:    res.Evaluations,
			Generations:    res.Generations,
			Stop:           res.Stop,
		}
		if len(e.Program.Modules) > 0 {
			rec.Modules = map[string]string{}
			for k, v := range e.Program.Modules {
				rec.Modules[k] = string(v)
			}
		}
		if rec.Operators == nil {
			rec.Operators = []string{}
			rec.Lineage = []Step{}
		}
		out = append(out, rec)
	}
	return out
}

// WriteJSONL writes the evolved benchmark, one JSON object per run of
// [Result.Evolved]: "instance", "dataset", "transformation" and
// "original code" (the artifact's fields), then "id", "main", "modules",
// "seed", "operators", "lineage" (the Steps), "rc_before", "rc_after",
// "rr_before", "rr_after", "evaluations", "generations" and "stop". The
// same report gives the same bytes.
func (r *Result) WriteJSONL(w io.Writer, dataset string) error {
	for _, rec := range r.records(dataset) {
		b, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("evolve: %s: %w", rec.ID, err)
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func isOriginalFails(err error) bool { return errors.Is(err, ErrOriginalFails) }
