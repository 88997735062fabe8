package versioned

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/textkit"
	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// problem is one GitChameleon record (dataset.jsonl), as published.
type problem struct {
	ID            string `json:"example_id"`
	PythonVersion string `json:"python_version"`
	Library       string `json:"library"`
	Version       string `json:"version"`
	// Statement is the problem text shown to the model.
	Statement string `json:"problem"`
	// StarterCode is the beginning of the module the answer completes.
	StarterCode string `json:"starting_code"`
	// Completion is the reference completion: StarterCode + Completion is
	// the reference module.
	Completion string `json:"solution"`
	// VisibleTest is a script appended to the module and run.
	VisibleTest string `json:"test"`
	// ChangeType is the raw, free-text type_of_change label.
	ChangeType   string `json:"type_of_change"`
	TargetEntity string `json:"name_of_class_or_func"`
	// AdditionalDeps and ExtraDeps are whitespace-separated pip
	// requirements ("numpy==1.21.6 scipy==1.7.3"), kept raw: the upstream
	// environment key hashes AdditionalDeps as written.
	AdditionalDeps string `json:"additional_dependencies"`
	ExtraDeps      string `json:"extra_dependencies,omitempty"`
	// Functional is false for "Full"-style records whose completion is a
	// fragment of the starter code's last statement.
	Functional  flag     `json:"functional"`
	WebDev      flag     `json:"webdev"`
	APICalls    []string `json:"api_calls"`
	ReleaseDate string   `json:"release_date"`
	Docs        []string `json:"docs"`

	// Raw holds every key of the record as read, known or not, so that
	// unknown keys are not lost.
	Raw map[string]json.RawMessage `json:"-"`

	// HiddenTest is the problem's hidden test file
	// (dataset/hidden_tests/test_sample_<id>.py), the benchmark's metric;
	// empty when it was not present where the dataset was read (readDataset).
	HiddenTest string `json:"-"`
}

// flag is a boolean that the dataset writes as 0, 1, "0" or "1" (or a JSON
// boolean).
type flag bool

// UnmarshalJSON accepts 0, 1, "0", "1", true and false.
func (f *flag) UnmarshalJSON(b []byte) error {
	switch strings.TrimSpace(string(b)) {
	case "1", `"1"`, "true", `"true"`:
		*f = true
	case "0", `"0"`, "false", `"false"`, "null", `""`:
		*f = false
	default:
		return fmt.Errorf("versioned: flag %s is not 0, 1, \"0\" or \"1\"", b)
	}
	return nil
}

// Reference returns the reference module: starter code plus completion.
func (p *problem) Reference() string { return p.StarterCode + p.Completion }

// Requirements returns the library pin, then the additional and extra
// dependencies, in that order; a token without "==" has an empty Version.
// The token "-" is dropped, as upstream does.
func (p *problem) Requirements() []adapt.Package {
	pk := []adapt.Package{{Name: p.Library, Version: p.Version}}
	for _, tok := range strings.Fields(p.AdditionalDeps + " " + p.ExtraDeps) {
		if tok == "-" {
			continue
		}
		name, ver, _ := strings.Cut(tok, "==")
		pk = append(pk, adapt.Package{Name: name, Version: ver})
	}
	return pk
}

// Environment returns the environment the problem names: its Python
// version, the library at its version, and its dependencies.
func (p *problem) Environment() adapt.Environment {
	return adapt.Environment{Runtime: p.PythonVersion, Packages: p.Requirements()}
}

// CompatKey is the upstream harness's environment key: the first 12 hex
// digits of sha256(python-library-version-additional_dependencies). The
// upstream venv directory is "gcham_venv_" + CompatKey. It ignores
// ExtraDeps; EnvSpec.Key does not.
func (p *problem) CompatKey() string {
	sum := sha256.Sum256([]byte(strings.Join([]string{p.PythonVersion, p.Library, p.Version, p.AdditionalDeps}, "-")))
	return hex.EncodeToString(sum[:])[:12]
}

// solution is one record of a solution file: a complete module (starter
// code plus completion) for one problem.
type solution struct {
	ExampleID string
	Answer    string
}

// UnmarshalJSON reads {"example_id", "answer"}, accepting "solution" and
// "output" as aliases of "answer", in that order, as upstream does.
func (s *solution) UnmarshalJSON(b []byte) error {
	var r struct {
		ID       json.RawMessage `json:"example_id"`
		Answer   *string         `json:"answer"`
		Solution *string         `json:"solution"`
		Output   *string         `json:"output"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	var id any
	if err := json.Unmarshal(r.ID, &id); err != nil {
		return fmt.Errorf("versioned: example_id: %w", err)
	}
	switch v := id.(type) {
	case string:
		s.ExampleID = v
	case float64:
		s.ExampleID = fmt.Sprint(v)
	default:
		return fmt.Errorf("versioned: example_id %s is not a string or number", r.ID)
	}
	switch {
	case r.Answer != nil:
		s.Answer = *r.Answer
	case r.Solution != nil:
		s.Answer = *r.Solution
	case r.Output != nil:
		s.Answer = *r.Output
	default:
		return fmt.Errorf("versioned: solution %q has no answer, solution or output", s.ExampleID)
	}
	return nil
}

// MarshalJSON writes {"example_id", "answer"}.
func (s solution) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID     string `json:"example_id"`
		Answer string `json:"answer"`
	}{s.ExampleID, s.Answer})
}

// readProblems reads problems in JSON Lines form; name is used in errors. Bad
// records are errors naming the line.
func readProblems(r io.Reader, name string) ([]problem, error) {
	var out []problem
	err := textkit.ReadJSONL(r, func(line int, raw []byte) error {
		var p problem
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("malformed problem: %w", err)
		}
		if err := json.Unmarshal(raw, &p.Raw); err != nil {
			return err
		}
		if p.ID == "" || p.Library == "" || p.Version == "" || p.StarterCode == "" {
			return fmt.Errorf("problem needs example_id, library, version and starting_code")
		}
		out = append(out, p)
		return nil
	}, func(line int, err error) error {
		return &adapt.ParseError{Path: name, Line: line, Err: err}
	})
	return out, err
}

// readSolutions reads a solution file (such as ground_truth_solutions.jsonl).
func readSolutions(r io.Reader, name string) ([]solution, error) {
	var out []solution
	err := textkit.ReadJSONL(r, func(line int, raw []byte) error {
		var s solution
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("malformed solution: %w", err)
		}
		out = append(out, s)
		return nil
	}, func(line int, err error) error {
		return &adapt.ParseError{Path: name, Line: line, Err: err}
	})
	return out, err
}

// readProblemsFile reads a dataset.jsonl file.
func readProblemsFile(path string) ([]problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("versioned: %w", err)
	}
	defer f.Close()
	return readProblems(f, path)
}

// readSolutionsFile reads a solution file.
func readSolutionsFile(path string) ([]solution, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("versioned: %w", err)
	}
	defer f.Close()
	return readSolutions(f, path)
}

// Task layout: the answer module, the visible test that runs it as a
// script, and the hidden test file, as upstream runs them.
const (
	// visibleTestName is the visible test of every task Tasks makes: the
	// module followed by the record's visible test, run as a script.
	visibleTestName = "test_visible.py::test_visible"
	// hiddenTestName is the hidden test of a task whose problem has a
	// hidden test file: every test of that file (a pytest node id prefix).
	hiddenTestName  = "test_sample.py"
	visibleTestFile = "test_visible.py"
	hiddenTestFile  = "test_sample.py"
	conftestFile    = "conftest.py"
)

// modulePath returns the workspace path of problem id's module,
// "sample_<id>.py", the name the upstream hidden tests import.
func modulePath(id string) string { return "sample_" + id + ".py" }

// tasksOf turns problems into version-conditioned tasks, run with pytest
// under adapt.PassExitStatus, upstream's rule. Each task's target is the
// whole module sample_<id>.py (the answer is a complete module, as
// upstream requires), its reference is the reference module and its Env is
// problem.Environment. Its tests:
//
//   - visibleTestName, visible: the module followed by the record's
//     visible test, written to visible_test_sample_<id>.py and run as a
//     script by the environment's interpreter, passing when it exits with
//     status 0, as the upstream harness's visible run does (so a visible
//     test that ends with unittest.main() passes when its tests do);
//   - hiddenTestName, hidden, when the problem has a hidden test file: the
//     file as test_sample.py beside the module, every test of it run by
//     pytest; under PassExitStatus it passes when pytest would exit 0 on it
//     alone (no test failed, at least one ran; tests that skip pass), as
//     upstream's hidden verdict. A conftest.py turns an import error of the
//     hidden file into a failure of its tests, so that the visible test
//     still runs (upstream runs the two apart).
//
// A problem without a hidden test file has the visible test only and no
// hidden verdict ([hiddenTests] is empty). Its labels are grouping keys
// (benchmark, library, python, type_of_change, category, style, webdev,
// year); its [Detail] holds the version, release date, Python version, the
// visible test's name and the API calls.
func tasksOf(problems []problem, source string) ([]adapt.Task, error) {
	tasks := make([]adapt.Task, 0, len(problems))
	for i := range problems {
		t, err := problems[i].Task(source)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// Task turns one problem into a task; see tasksOf.
func (p *problem) Task(source string) (adapt.Task, error) {
	lit, err := pyString(p.VisibleTest)
	if err != nil {
		return adapt.Task{}, fmt.Errorf("versioned: problem %s: %w", p.ID, err)
	}
	mod := modulePath(p.ID)
	visible := strings.ReplaceAll(strings.ReplaceAll(visibleWrapper, "%VISIBLE_TEST%", lit), "%MODULE%", fmt.Sprintf("%q", mod))
	env := p.Environment()
	style := "full"
	if p.Functional {
		style = "functional"
	}
	t := adapt.Task{
		ID:          p.ID,
		Language:    adapt.Python,
		Code:        p.StarterCode,
		Target:      adapt.Target{Path: mod, Content: p.Reference()},
		Files:       []adapt.File{{Path: visibleTestFile, Content: visible}},
		Requirement: adapt.Requirement{Task: p.Statement},
		Reference:   p.Reference(),
		Framework:   adapt.FrameworkPytest,
		PassRule:    adapt.PassExitStatus,
		Tests:       []adapt.Test{{Name: visibleTestName, File: visibleTestFile}},
		Labels: map[string]string{
			"benchmark":      "gitchameleon",
			"library":        p.Library,
			"python":         p.PythonVersion,
			"type_of_change": p.ChangeType,
			"category":       libapi.Categorize(p.ChangeType).String(),
			"style":          style,
			"webdev":         fmt.Sprint(bool(p.WebDev)),
		},
		Provenance: &adapt.Provenance{Generator: "gitchameleon", Source: source},
		Env:        &env,
	}
	if p.HiddenTest != "" {
		t.Files = append(t.Files, adapt.File{Path: hiddenTestFile, Content: p.HiddenTest}, adapt.File{Path: conftestFile, Content: hiddenConftest})
		t.Tests = append(t.Tests, adapt.Test{Name: hiddenTestName, File: hiddenTestFile})
	}
	d := &Detail{Version: p.Version, Release: p.ReleaseDate, Runtime: p.PythonVersion, VisibleTests: []string{visibleTestName}, APICalls: slices.Clone(p.APICalls)}
	if len(d.APICalls) == 0 {
		d.APICalls = nil
	}
	if err := SetDetail(&t, d); err != nil {
		return adapt.Task{}, err
	}
	if err := t.Validate(); err != nil {
		return adapt.Task{}, err
	}
	return t, nil
}

// visibleWrapper is the visible test: the module and the record's test,
// written to a file and run as a script, as upstream's run_script does.
const visibleWrapper = `import os
import subprocess
import sys
import tempfile

import pytest

VISIBLE_TEST = %VISIBLE_TEST%
MODULE = %MODULE%


def test_visible():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, MODULE)) as f:
        src = f.read() + "\n" + VISIBLE_TEST
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "visible_test_" + MODULE)
        with open(path, "w") as f:
            f.write(src)
        proc = subprocess.run([sys.executable, path], cwd=here, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace")
        pytest.fail("the visible test script exited with status %d\n%s" % (proc.returncode, err[-12000:]), pytrace=False)
`

// hiddenConftest makes a hidden test file that does not import (a
// collection error, which stops a pytest session) fail its own test
// instead, so that the visible test still runs. Upstream runs the hidden
// file alone, where the same error makes pytest exit 2: a failure too.
const hiddenConftest = `import os

import pytest

HIDDEN = "test_sample.py"


class HiddenTestImportError(pytest.Item):
    reason = ""

    def runtest(self):
        raise ImportError(self.reason)

    def repr_failure(self, excinfo, style=None):
        return self.reason

    def reportinfo(self):
        return self.fspath, None, self.name


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed and isinstance(collector, pytest.Module) and os.path.basename(str(collector.fspath)) == HIDDEN:
        item = HiddenTestImportError.from_parent(collector, name="import")
        item.reason = "the hidden test file did not import:\n" + rep.longreprtext
        rep.outcome = "passed"
        rep.longrepr = None
        rep.result = [item]
`

// pyString renders s as a Python string literal. A JSON string without
// HTML escaping is one, except for the escapes of U+2028 and U+2029, which
// Python reads the same way.
func pyString(s string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}
