// Package detail encodes and decodes the generators' records in
// adapt.Provenance.Detail, so that mutate, ctxbug, versioned and evolve set
// and check them the same way. Each generator wraps Set and Get in its own
// SetDetail and DetailOf; nothing here appears in an exported signature.
package detail

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/adaptbench/adaptbench/adapt"
)

// Set stores v, encoded as compact JSON without HTML escaping, as t's
// provenance detail under schema, making t.Provenance if it is nil.
func Set(t *adapt.Task, schema string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("task %q: provenance detail (%s): %w", t.ID, schema, err)
	}
	if t.Provenance == nil {
		t.Provenance = &adapt.Provenance{}
	}
	t.Provenance.Schema = schema
	t.Provenance.Detail = json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return nil
}

// Get decodes t's provenance detail into v after checking that its schema
// is schema. An error names pkg (the decoder's package), the task and what
// was expected; a wrong or missing schema wraps adapt.ErrDetailSchema.
// Unknown fields are an error: a record of another version is not misread.
func Get(t *adapt.Task, pkg, schema string, v any) error {
	if t.Provenance == nil || t.Provenance.Schema != schema {
		got := "no provenance"
		if t.Provenance != nil {
			got = fmt.Sprintf("%q", t.Provenance.Schema)
			if t.Provenance.Schema == "" {
				got = "none"
			}
		}
		return fmt.Errorf("%s: task %q: %w: %s (want %q, a task made by %s)", pkg, t.ID, adapt.ErrDetailSchema, got, schema, pkg)
	}
	dec := json.NewDecoder(bytes.NewReader(t.Provenance.Detail))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: task %q: provenance detail (%s): %w", pkg, t.ID, schema, err)
	}
	return nil
}
