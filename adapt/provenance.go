package adapt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// SetDetail stores v, encoded as compact JSON without HTML escaping, as t's
// provenance detail under schema ("<generator>/v<N>"), making t.Provenance
// if it is nil. It is how a generator (mutate, ctxbug, versioned, evolve,
// impossible) records what it did, for its own DetailOf to read back with
// DecodeDetail.
func (t *Task) SetDetail(schema string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("task %q: provenance detail (%s): %w", t.ID, schema, err)
	}
	if t.Provenance == nil {
		t.Provenance = &Provenance{}
	}
	t.Provenance.Schema = schema
	t.Provenance.Detail = json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return nil
}

// DecodeDetail decodes t's provenance detail into v after checking that
// its schema is schema. An error names the generator (schema's part
// before "/"), the task and what was expected; a wrong or missing schema
// wraps ErrDetailSchema. Unknown fields are an error: a record of another
// version is not misread.
func (t *Task) DecodeDetail(schema string, v any) error {
	pkg, _, _ := strings.Cut(schema, "/")
	if t.Provenance == nil || t.Provenance.Schema != schema {
		got := "no provenance"
		if t.Provenance != nil {
			got = fmt.Sprintf("%q", t.Provenance.Schema)
			if t.Provenance.Schema == "" {
				got = "none"
			}
		}
		return fmt.Errorf("%s: task %q: %w: %s (want %q, a task made by %s)", pkg, t.ID, ErrDetailSchema, got, schema, pkg)
	}
	dec := json.NewDecoder(bytes.NewReader(t.Provenance.Detail))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: task %q: provenance detail (%s): %w", pkg, t.ID, schema, err)
	}
	return nil
}

// SetRevision records in the provenance of every task the repository and
// commit its data was read from (package source's Snapshot.Repo and
// Snapshot.Commit), giving a task without provenance one. Each task gets
// its own copy of its provenance, so tasks that shared one do not change
// each other. It is what every loader's LoadRevision calls.
func SetRevision(tasks []Task, repo, commit string) {
	for i := range tasks {
		var p Provenance
		if tasks[i].Provenance != nil {
			p = *tasks[i].Provenance
		}
		p.Repo, p.Commit = repo, commit
		tasks[i].Provenance = &p
	}
}
