package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ReadReport reads a report that [Report.WriteJSON] wrote, such as a
// baseline a CI gate keeps to [Compare] a new run with; writing it again
// gives the same bytes. A field the Report does not have is an error
// naming it (the file is not a report, or a newer version wrote it), and
// so is anything after the report.
func ReadReport(r io.Reader) (*Report, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("adapt: ReadReport: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var rep Report
	if err := dec.Decode(&rep); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("adapt: ReadReport: not a report's JSON: %w at line %d", err, lineOf(b, se.Offset))
		}
		return nil, fmt.Errorf("adapt: ReadReport: not a report written by WriteJSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("adapt: ReadReport: more after the report at line %d (want one report)", lineOf(b, dec.InputOffset()))
	}
	if rep.PerTask == nil || rep.Outcomes == nil {
		return nil, errors.New("adapt: ReadReport: no per_task or outcomes field (want a report written by WriteJSON)")
	}
	return &rep, nil
}
