package mutate_test

import (
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/mutate"
)

// TestInspectStringWhitespace checks that Inspect compares tokens: an
// updateconst mutation that only changes white space inside a string
// literal (" " in F, "" in F′) is Unchanged in the identity answer and
// Reversed in the reference, not Reversed in both (white space used to be
// dropped inside literals too).
func TestInspectStringWhitespace(t *testing.T) {
	for _, tc := range []struct {
		name, lang, ref, old, new string
	}{
		{"go/space", adapt.Go, "func Join(a, b string) string {\n\ts := a\n\ts += \" \"\n\treturn s + b\n}", `" "`, `""`},
		{"go/inner", adapt.Go, "func Join(a, b string) string {\n\ts := a\n\ts += \"a b\"\n\treturn s + b\n}", `"a b"`, `"ab"`},
		{"java/space", adapt.Java, "String join(String a, String b) {\n\tString s = a;\n\ts += \" \";\n\treturn s + b;\n}", `" "`, `""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := strings.Index(tc.ref, tc.old)
			code := strings.Replace(tc.ref, tc.old, tc.new, 1)
			start := strings.Index(tc.ref, "s ")
			if tc.lang == adapt.Java {
				start = strings.Index(tc.ref, "String s")
			}
			rEnd := strings.LastIndex(tc.ref, "\n}")
			cEnd := strings.LastIndex(code, "\n}")
			fn := "Join"
			if tc.lang == adapt.Java {
				fn = "join"
			}
			task := &adapt.Task{ID: tc.name, Language: tc.lang, Code: code, Reference: tc.ref,
				Target: adapt.Target{Path: "x", Function: fn}}
			err := mutate.SetDetail(task, &mutate.Detail{
				Snippet:   mutate.Range{Start: start, End: cEnd},
				Reference: mutate.Range{Start: start, End: rEnd},
				Mutations: []mutate.Record{{Operator: "updateconst", Tier: mutate.TierIdentifier, NodeKind: "string_literal",
					Changes: []mutate.Change{{Orig: mutate.Range{Start: at, End: at + len(tc.old)}, Mut: mutate.Range{Start: at, End: at + len(tc.new)}, Old: tc.old, New: tc.new}}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name, output string
				want         mutate.Verdict
			}{
				{"identity", code, mutate.Unchanged},
				{"reference", tc.ref, mutate.Reversed},
				{"reformatted reference", strings.ReplaceAll(tc.ref, "\t", "    "), mutate.Reversed},
			} {
				in, err := mutate.Inspect(task, c.output)
				if err != nil {
					t.Fatal(err)
				}
				if in.Verdicts[0] != c.want {
					t.Errorf("%s answer: %s, want %s", c.name, in.Verdicts[0], c.want)
				}
			}
		})
	}
}
