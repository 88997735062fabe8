package ctxbug_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/ctxbug"
)

func TestStageText(t *testing.T) {
	for _, s := range ctxbug.Reasons {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back ctxbug.Reason
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%v: round trip gave %v, %v", s, back, err)
		}
	}
	if _, err := ctxbug.ReasonInvalid.MarshalText(); err == nil {
		t.Error("StageInvalid marshalled")
	}
	var s ctxbug.Reason
	if err := s.UnmarshalText([]byte("")); err == nil {
		t.Error(`"" unmarshalled`)
	}
}

var sampleInstance = &ctxbug.Instance{
	ID: "G|Fixture_0.add/operator/0|0", Base: "Fixture_0.add", Generator: "G", Rule: "operator", Task: "functionality",
	Template: "def add(a, b):\n    return a <INFILL> b\n", Holes: []ctxbug.Hole{{Start: 28, End: 29, Node: "|", Placeholder: "<INFILL>"}},
	Names: map[string]string{"var_0": "a", "var_1": "b"}, Raw: "```python\ndef add(var_0, var_1):\n    return var_0 + var_1\n```",
	Variant: "def add(a, b):\n    return a + b\n", Failing: []string{"test_solution.T.test_add"},
	Bugs: []ctxbug.Bug{{Hole: 0, Node: "|", Solution: ctxbug.Span{Start: 28, End: 29}, Text: "|", Variant: ctxbug.Span{Start: 28, End: 29}, VariantText: "+"}},
}

func TestInstancesRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := ctxbug.WriteInstances(&b, []*ctxbug.Instance{sampleInstance, sampleInstance}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"template":"def add(a, b):\n    return a <INFILL> b\n"`) {
		t.Errorf("placeholders are escaped:\n%s", b.String())
	}
	got, err := ctxbug.ReadInstances(&b, "i.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, []*ctxbug.Instance{sampleInstance, sampleInstance}, got, "round trip")
}

func TestReadInstancesErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"malformed", "{\n", "i.jsonl:1: ctxbug: malformed instance"},
		{"unknown_field", `{"id": "x", "colour": 1}`, `i.jsonl:1: ctxbug: malformed instance: json: unknown field "colour"`},
		{"incomplete", "\n" + `{"id": "x", "base": "b"}`, "i.jsonl:2: ctxbug: instance needs id, base, variant and bugs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ctxbug.ReadInstances(strings.NewReader(tt.in), "i.jsonl")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestDetailOf(t *testing.T) {
	tk := &adapt.Task{ID: "x", Reference: "def f(a):\n    return a + 1\n"}
	want := &ctxbug.Detail{Instance: "i", Class: "C", Bugs: []ctxbug.Span{{Start: 24, End: 25}, {Start: 26, End: 27}}}
	if err := ctxbug.SetDetail(tk, want); err != nil {
		t.Fatal(err)
	}
	if tk.Provenance.Schema != ctxbug.DetailSchema {
		t.Errorf("schema %q", tk.Provenance.Schema)
	}
	got, err := ctxbug.DetailOf(tk)
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("DetailOf = %+v, %v", got, err)
	}
	for _, tc := range []struct {
		name, detail, schema, want string
	}{
		{"no bugs", `{"instance":"i","class":"C","bugs":[]}`, ctxbug.DetailSchema, "no bug location"},
		{"reversed", `{"instance":"i","class":"C","bugs":[{"start":5,"end":2}]}`, ctxbug.DetailSchema, "bad bug location [5,2)"},
		{"past the end", `{"instance":"i","class":"C","bugs":[{"start":0,"end":99}]}`, ctxbug.DetailSchema, "bad bug location [0,99)"},
		{"old labels", `{"bugs":"24-25"}`, ctxbug.DetailSchema, "cannot unmarshal string"},
		{"other schema", `{}`, "mutate/v1", `wrong provenance schema: "mutate/v1" (want "ctxbug/v1"`},
	} {
		tk.Provenance.Detail, tk.Provenance.Schema = []byte(tc.detail), tc.schema
		if _, err := ctxbug.DetailOf(tk); err == nil || !strings.Contains(err.Error(), `task "x"`) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: DetailOf = %v, want an error naming the task and %q", tc.name, err, tc.want)
		}
	}
	if _, err := ctxbug.DetailOf(&adapt.Task{ID: "y"}); !errors.Is(err, adapt.ErrDetailSchema) {
		t.Errorf("DetailOf(a task without provenance) = %v, want adapt.ErrDetailSchema", err)
	}
}

// FuzzReadInstances checks that the instance reader never panics and that
// what it accepts writes back and reads again the same.
func FuzzReadInstances(f *testing.F) {
	var b bytes.Buffer
	ctxbug.WriteInstances(&b, []*ctxbug.Instance{sampleInstance})
	f.Add(b.Bytes())
	f.Add([]byte("{\n"))
	f.Add([]byte(`{"id": "x", "base": "b", "variant": "v", "bugs": [{}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		ins, err := ctxbug.ReadInstances(bytes.NewReader(in), "f")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := ctxbug.WriteInstances(&out, ins); err != nil {
			t.Fatal(err)
		}
		back, err := ctxbug.ReadInstances(&out, "f")
		if err != nil || !cmp.Equal(ins, back) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// TestObfuscateAdaptation renames the class's own names (class, fields,
// methods but the target) in the method, the context and the requirement,
// and the method's locals, and maps back.
func TestObfuscateAdaptation(t *testing.T) {
	code := "def withdraw(self, amount):\n    if amount > self.balance:\n        raise ValueError('too much')\n    self.balance -= amount\n    self.log(amount)\n    return self.balance\n"
	ctx := "class Account:\n    def __init__(self):\n        self.balance = 0\n        self.history = []\n\n    def log(self, amount):\n        self.history.append(amount)\n"
	req := "Withdraw amount from self.balance and log(amount) it in Account."
	v, err := ctxbug.ObfuscateAdaptation(code, req, ctx, "Account", "withdraw")
	if err != nil {
		t.Fatal(err)
	}
	want := &ctxbug.AdaptView{
		Code:        "def withdraw(self, var_0):\n    if var_0 > self.var_2:\n        raise ValueError('too much')\n    self.var_2 -= var_0\n    self.var_4(var_0)\n    return self.var_2\n",
		Context:     "class var_1:\n    def __init__(self):\n        self.var_2 = 0\n        self.var_3 = []\n\n    def var_4(self, amount):\n        self.var_3.append(amount)\n",
		Requirement: "Withdraw var_0 from self.var_2 and var_4(var_0) it in var_1.",
		Names:       map[string]string{"var_0": "amount", "var_1": "Account", "var_2": "balance", "var_3": "history", "var_4": "log"},
	}
	assert.Equal(t, want, v)
	for _, p := range [][2]string{{v.Code, code}, {v.Context, ctx}} {
		back, err := ctxbug.Deobfuscate([]byte(p[0]), v.Names)
		if err != nil || string(back) != p[1] {
			t.Errorf("no round trip: %v\n%s", err, back)
		}
	}
}
