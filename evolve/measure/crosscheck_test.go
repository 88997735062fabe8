package measure

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
)

// debianPython is the interpreter the cross-check runs: Debian's, whose
// python3-nltk package provides the tokenizer (the python3 on PATH may
// be a pyenv shim without Debian's packages).
const debianPython = "/usr/bin/python3"

// metricKeys are the keys testdata/astmetrics.py reports, in order, with
// the Metrics value each stands for.
var metricKeys = []struct {
	key string
	get func(Metrics) float64
}{
	{"C1", func(m Metrics) float64 { return m.Complexity[0] }},
	{"C2", func(m Metrics) float64 { return m.Complexity[1] }},
	{"C3", func(m Metrics) float64 { return m.Complexity[2] }},
	{"C4", func(m Metrics) float64 { return m.Complexity[3] }},
	{"C5", func(m Metrics) float64 { return m.Complexity[4] }},
	{"C6", func(m Metrics) float64 { return m.Complexity[5] }},
	{"C7", func(m Metrics) float64 { return m.Complexity[6] }},
	{"R1", func(m Metrics) float64 { return m.Readability[0] }},
	{"R2", func(m Metrics) float64 { return m.Readability[1] }},
	{"R3", func(m Metrics) float64 { return m.Readability[2] }},
	{"R4", func(m Metrics) float64 { return m.Readability[3] }},
	{"R5", func(m Metrics) float64 { return m.Readability[4] }},
	{"R6", func(m Metrics) float64 { return m.Readability[5] }},
	{"R7", func(m Metrics) float64 { return m.Readability[6] }},
	{"R8", func(m Metrics) float64 { return m.Readability[7] }},
	{"R9", func(m Metrics) float64 { return m.Readability[8] }},
	{"R10", func(m Metrics) float64 { return m.Readability[9] }},
	{"R11", func(m Metrics) float64 { return m.Readability[10] }},
	{"R12", func(m Metrics) float64 { return m.Readability[11] }},
	{"R13", func(m Metrics) float64 { return m.Readability[12] }},
	{"R14", func(m Metrics) float64 { return m.MaxIfConditions }},
}

// astMetrics runs testdata/astmetrics.py over progs and returns, per
// program, the metrics computed with Python's ast module (and nltk's
// tokenizer when Debian's python3-nltk is installed).
func astMetrics(t *testing.T, progs []program) []map[string]float64 {
	t.Helper()
	if _, err := os.Stat(debianPython); err != nil {
		exectest.SkipWithout(t, "%s is not installed: %v", debianPython, err)
	}
	var in bytes.Buffer
	stdlib := make([]string, 0, len(stdlib310))
	for name := range stdlib310 {
		stdlib = append(stdlib, name)
	}
	slices.Sort(stdlib)
	head, _ := json.Marshal(map[string][]string{"stdlib": stdlib, "third_party": DefaultThirdParty})
	in.Write(append(head, '\n'))
	for _, p := range progs {
		line, _ := json.Marshal(map[string]string{"id": p.ID, "src": string(p.Src)})
		in.Write(append(line, '\n'))
	}
	cmd := exec.Command(debianPython, "testdata/astmetrics.py")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("testdata/astmetrics.py: %v\n%s", err, stderr.String())
	}
	var res []map[string]float64
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			ID      string             `json:"id"`
			Metrics map[string]float64 `json:"metrics"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("testdata/astmetrics.py output line %d: %v", len(res)+1, err)
		}
		if want := progs[len(res)].ID; rec.ID != want {
			t.Fatalf("testdata/astmetrics.py output line %d is %q, want %q", len(res)+1, rec.ID, want)
		}
		res = append(res, rec.Metrics)
	}
	if len(res) != len(progs) {
		t.Fatalf("testdata/astmetrics.py returned %d records for %d programs", len(res), len(progs))
	}
	return res
}

// TestCrossCheck compares every metric with the Python ast reference
// over the 164 HumanEval canonical solutions, ClassEval's 100 classes and
// 100 test files, and GitChameleon's 328 solutions, and logs the
// agreement per metric.
func TestCrossCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		progs func(testing.TB) []program
	}{
		{"HumanEval", humanEval},
		{"ClassEval", classEval},
		{"GitChameleon", gitChameleon},
		{"testdata", fixtures},
	} {
		t.Run(c.name, func(t *testing.T) { crossCheck(t, c.progs(t)) })
	}
}

func crossCheck(t *testing.T, progs []program) {
	ref := astMetrics(t, progs)
	agree := map[string]int{}
	total := map[string]float64{} // to show that the agreement is not on zeros
	var report strings.Builder
	for i, p := range progs {
		m, err := Measure(p.Src)
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		for _, k := range metricKeys {
			want, ok := ref[i][k.key]
			if !ok {
				continue
			}
			got := k.get(m)
			total[k.key] += got
			if math.Abs(got-want) <= 1e-9 {
				agree[k.key]++
			} else if os.Getenv("MEASURE_VERBOSE") != "" {
				t.Logf("%s %s: got %v, ast says %v", p.ID, k.key, got, want)
			}
		}
	}
	for _, k := range metricKeys {
		if _, ok := ref[0][k.key]; !ok {
			fmt.Fprintf(&report, "%s: not computed (nltk missing); ", k.key)
			continue
		}
		fmt.Fprintf(&report, "%s %d/%d (Σ %.6g); ", k.key, agree[k.key], len(progs), total[k.key])
	}
	t.Log("agreement with Python's ast: " + report.String())
	for _, k := range metricKeys {
		if _, ok := ref[0][k.key]; ok && agree[k.key] < len(progs) {
			t.Errorf("%s agrees on %d of %d programs", k.key, agree[k.key], len(progs))
		}
	}
}
