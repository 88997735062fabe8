package adapt_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

func TestReplay(t *testing.T) {
	tasks := fixtureTasks(t)
	rec := `{"task":"py-scaled-sum","sample":1,"completion":{"text":"` + "```python\\ndef scaled_sum(values, factor=1.0):\\n    return sum(values) * factor\\n```" + `","usage":{"prompt_tokens":10,"completion_tokens":5}}}
{"task":"py-scaled-sum","sample":0,"completion":{"text":"no code here"}}
`
	rp, err := adapt.NewReplay("gpt-test", strings.NewReader(rec), "recorded.jsonl")
	require.NoError(t, err)
	rep, err := adapt.Evaluate(context.Background(), tasks[2:], rp, &adapt.Options{Runner: runner(t), Samples: 3})
	require.NoError(t, err)
	assert.Equal(t, "gpt-test", rep.Run.Model)
	got := map[report.Outcome]int{}
	for _, s := range rep.PerTask[0].Samples {
		got[s.Outcome]++
	}
	assert.Equal(t, map[report.Outcome]int{report.OutcomeNoCode: 1, report.OutcomePassed: 1}, got,
		"sample 0 has no code, sample 1 passes, and sample 2, never recorded, is not asked for (Samples caps the count the replay holds)")
	assert.Equal(t, map[string]int{"py-scaled-sum": 2}, rep.Run.TaskSamples)
	require.Len(t, rep.Unscored, 1)
	assert.Equal(t, report.UnscoredTask{TaskID: "py-scaled-sum", Reason: "2 of 2 samples scored", K: []int{3}, Scored: 2, Samples: 2}, rep.Unscored[0],
		"pass@3 is not computable from 2 samples: reported, not padded with a model error")
	assert.Equal(t, report.Usage{PromptTokens: 10, CompletionTokens: 5}, rep.Usage)

	_, err = adapt.NewReplay("m", strings.NewReader("{\"task\":\"a\",\"sample\":0}\n{\"task\":\"a\",\"sample\":0}\n"), "dup.jsonl")
	assert.ErrorContains(t, err, "dup.jsonl:2")
	_, err = adapt.NewReplay("m", strings.NewReader("[1,2]\n"), "bad.jsonl")
	var pe *adapt.ParseError
	assert.True(t, errors.As(err, &pe) && pe.Line == 1, "%v", err)
}

func TestReportCSV(t *testing.T) {
	rep, err := adapt.Evaluate(context.Background(), fixtureTasks(t), adapt.Reference, &adapt.Options{Runner: runner(t)})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteCSV(&buf))
	want := `task,valid,n,c,pass@1,passed,failed,no-code,compile-error,timeout,memory,output,crashed,model-error,infra-error,wrong-name,tampered,status,unscored
go-clamp,true,1,1,1.000000,1,0,0,0,0,0,0,0,0,0,0,0,valid,
py-broken-ref,false,0,0,,0,0,0,0,0,0,0,0,0,0,0,0,invalid,
py-scaled-sum,true,1,1,1.000000,1,0,0,0,0,0,0,0,0,0,0,0,valid,
`
	assert.Equal(t, want, buf.String())
}

func TestAdaptationLevelPrompt(t *testing.T) {
	task := fixtureTasks(t)[2]
	task.Requirement.Steps[1].Description = "Add a 'factor' parameter."
	msgs, err := adapt.AdaptationLevel.Render(&task)
	require.NoError(t, err)
	require.Len(t, msgs, 2)
	assert.Equal(t, adapt.Message{Role: "system", Content: "You are a helpful assistant."}, msgs[0])
	want := "I will provide you with a code snippet to reuse and a json file containing required adaptations. You should adapt the snippet into a target code base according to the description of adaptations one by one. Some related code context from the target code base is provided for reference." +
		"\n\n### Reused Snippet:\n```python\ndef total(xs):\n    result = 0\n    for x in xs:\n        result += x\n    return result\n```\n" +
		"\n\n### Adaptations Required to Perform:\n```json\n" +
		`[{'id': 0, 'type': 'Method_Signature.Rename_Func', 'description': 'Rename total to scaled_sum.'}, {'id': 1, 'type': 'Method_Signature.Ins_Param', 'description': "Add a 'factor' parameter."}]` +
		"\n```\n\n\n### Related Code Context For Reference:\nNone.\n" +
		"\n\nPlease write out function after adaptation in the following section:\n### Adapted Function:"
	assert.Equal(t, want, msgs[1].Content, "the AdaptEval artifact's prompt, with Python repr of the steps")

	noreq, err := adapt.InstructionFree.Render(&task)
	require.NoError(t, err)
	assert.Contains(t, noreq[1].Content, "### In-file Context:\n```python\n\"\"\"Small numeric helpers.\"\"\"")
	assert.Contains(t, noreq[1].Content, "return 0\n\n\n# insert your adapted method here.\n\n\ndef norm(values):")
	assert.NotContains(t, noreq[1].Content, "result * factor", "the target function is masked")
}
