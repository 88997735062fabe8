package adapteval

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/pinned"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// The irregularities Load reports. The published data has
// issueDuplicateID (repo 181), issueSkippedID (374, 819, 1231),
// issueUntested (373, 786) and issueCtxImport (24 tasks).
const (
	// issueDuplicateID: an adaptation repeats the id of an earlier one of
	// its task; its step ID gets "#2" (then "#3", …).
	issueDuplicateID = "duplicate-adaptation-id"
	// issueSkippedID: adaptation ids are not 0, 1, 2, …; they are kept.
	issueSkippedID = "skipped-adaptation-id"
	// issueUntested: an adaptation has no associated test.
	issueUntested = "adaptation-without-test"
	// issueUnknownType: a type label outside the 38 of the taxonomy.
	issueUnknownType = "unknown-type"
	// issueNoAdaptations: a task without annotated adaptations.
	issueNoAdaptations = "no-adaptations"
	// issueSnippetName: so_clone is not a "_clean.py" file.
	issueSnippetName = "snippet-name"
	// issueDescription: the task description is missing or does not match
	// its checksum.
	issueDescription = "task-description"
	// issueDuplicateTask: two linked methods share a task ID.
	issueDuplicateTask = "duplicate-task"
	// issueMissingFile: a file of the task (snippet, context file, test
	// module) is not in the checkout; the task is left out.
	issueMissingFile = "missing-file"
	// issueNoTarget: the context file does not define the method; the
	// task is left out.
	issueNoTarget = "target-not-found"
	// issueAmbiguousTarget: the context file defines the method more than
	// once; the outermost, first definition is the target.
	issueAmbiguousTarget = "ambiguous-target"
	// issueNoTestClass: the test module has no Test<Method> class, or it
	// has no test methods; the task is left out.
	issueNoTestClass = "test-class-not-found"
	// issueUnknownTest: an associated test is not a test method of the
	// class; it is dropped from the adaptation.
	issueUnknownTest = "unknown-associated-test"
	// issueCtxImport: the test module imports the context module as
	// ctx_<stem>, so the target file is ctx_<file name>.
	issueCtxImport = "ctx-import"
	// issueContextImport: the test module imports the context module by
	// neither name.
	issueContextImport = "context-import"
	// issueOracle: a dependency of the Oracle context was not found; its
	// block is left out.
	issueOracle = "oracle-dependency"
	// issueOracleSource: the Oracle context comes from the ground-truth
	// context file, because the GitHub file (in the artifact's Drive
	// tarball) is absent.
	issueOracleSource = "oracle-source"
)

// Issue is one irregularity the loader tolerated.
type Issue struct {
	// Task is the task's ID, or "" for the benchmark as a whole.
	Task string `json:"task,omitempty"`
	// Kind names the kind of irregularity: "missing-file",
	// "duplicate-adaptation-id", … (the kinds are listed in load.go); the
	// names are stable.
	Kind string `json:"kind"`
	// Detail says what was found.
	Detail string `json:"detail"`
	// Handling says what the loader did about it.
	Handling string `json:"handling"`
}

// LoadReport lists what Load read and every irregularity
// it tolerated, in the order met.
type LoadReport struct {
	// Repos, Tasks and Adaptations count what metadata.json describes.
	Repos       int `json:"repos"`
	Tasks       int `json:"tasks"`
	Adaptations int `json:"adaptations"`
	// Loaded counts the tasks Load made into adapt.Tasks.
	Loaded int `json:"loaded"`
	// Issues are the irregularities, in the order met.
	Issues []Issue `json:"issues,omitempty"`
}

func (r *LoadReport) add(task string, kind string, detail, handling string) {
	r.Issues = append(r.Issues, Issue{Task: task, Kind: kind, Detail: detail, Handling: handling})
}

// count returns the number of issues of a kind.
func (r *LoadReport) count(kind string) int {
	n := 0
	for _, is := range r.Issues {
		if is.Kind == kind {
			n++
		}
	}
	return n
}

// Skipped returns the IDs of the tasks Load left out, in order.
func (r *LoadReport) Skipped() []string {
	var ids []string
	for _, is := range r.Issues {
		switch is.Kind {
		case issueMissingFile, issueNoTarget, issueNoTestClass:
			if !slices.Contains(ids, is.Task) {
				ids = append(ids, is.Task)
			}
		}
	}
	return ids
}

// WriteText writes the report for people: the counts, then one line per
// issue. The format may change.
func (r *LoadReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d repositories, %d tasks, %d adaptations; %d tasks loaded\n", r.Repos, r.Tasks, r.Adaptations, r.Loaded)
	for _, is := range r.Issues {
		task := is.Task
		if task == "" {
			task = "*"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s (%s)\n", task, is.Kind, is.Detail, is.Handling)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// generator is the Provenance.Generator of the tasks Load makes.
const generator = "adapteval"

// Load reads a checkout of the AdaptEval repository, as published, from
// fsys: root/metadata.json and, per task, in
// root/benchmark/<repo id>/dataset_items/,
//
//	<so_clone>                                  the reused snippet (Task.Code)
//	<file_name>                                 the ground-truth context file (Task.Target)
//	test_<file stem>_<method>.py                the unittest module (a Task file)
//	adaptation_task_for_<method>/task_description.txt
//
// It returns one adapt.Task per linked method, in the order of
// metadata.json, with ID "<repo id>.<file stem>.<method>":
//
//   - Target is the context file, at the path the test module imports it
//     from: "<file_name>", or "ctx_<file_name>" when the test imports
//     ctx_<stem>. Target.Function is the method; Reference is its
//     definition in the context file, decorators included.
//   - Requirement.Task is the task description, verbatim; the steps are
//     the adaptations in order, with Type the data's label
//     ("Logic.Ins_Call") and ID the Adaptation.Step.
//   - Tests are every test method of the class Test<Method> (sorted, as
//     unittest runs them), named "<module>.<Class>.<method>"; a test is
//     tied to the adaptations that list it in associated_tests, and the
//     others are function-level.
//   - Context is the Oracle context (see oracleContext).
//   - Provenance.Source is the task's directory,
//     root/benchmark/<repo id>/dataset_items.
//
// Load tolerates what the published data does and says so in the report
// (see Issue); a task whose files are missing is left out and
// reported, not an error. When the repository's full GitHub files are
// there too (the artifact's Drive tarball, unpacked as
// benchmark/<repo id>/<name>/, name being the part of repo_name after the
// slash), the Oracle context is built from them as the artifact does;
// otherwise from the context file.
func Load(fsys fs.FS, root string) ([]adapt.Task, *LoadReport, error) {
	recs, rep, err := readMetadata(fsys, root)
	if err != nil {
		return nil, nil, err
	}
	var tasks []adapt.Task
	seen := map[string]bool{}
	fromCtx := 0
	for i := range recs {
		r := &recs[i]
		if seen[r.ID()] {
			continue
		}
		t, ok, gitHubFile := buildTask(fsys, root, r, rep)
		if !ok {
			continue
		}
		if !gitHubFile {
			fromCtx++
		}
		seen[r.ID()] = true
		tasks = append(tasks, t)
	}
	if fromCtx > 0 {
		rep.add("", issueOracleSource, fmt.Sprintf("the GitHub files of %d tasks are not in the checkout (they come in the artifact's Drive tarball)", fromCtx),
			"their Oracle context is built from the ground-truth context file, which has the imports and the adapted function only")
	}
	rep.Loaded = len(tasks)
	return tasks, rep, nil
}

// LoadDir reads a checkout of the AdaptEval repository from a directory
// (see Load).
func LoadDir(dir string) ([]adapt.Task, *LoadReport, error) {
	return Load(os.DirFS(dir), ".")
}

// LoadRevision reads the AdaptEval repository at a revision, from the
// directory root of that commit's tree ("." for the repository's root),
// straight from git's object store (see Load; repo and rev are as
// source.Open takes them: a local clone, a bare mirror or a URL, and a
// branch, tag or hash). Every task's provenance names the repository and
// the commit's full hash, with Source the task's directory in the
// repository. The same revision gives the same tasks, byte for byte.
func LoadRevision(ctx context.Context, repo, rev, root string) ([]adapt.Task, *LoadReport, error) {
	return pinned.LoadReport(ctx, repo, rev, func(fsys fs.FS) ([]adapt.Task, *LoadReport, error) {
		return Load(fsys, root)
	}, adapt.SetRevision)
}

// buildTask makes the task of one record. ok is false when the task is left
// out (reported); gitHubFile says whether the Oracle context came from the
// GitHub file.
func buildTask(fsys fs.FS, root string, r *record, rep *LoadReport) (t adapt.Task, ok, gitHubFile bool) {
	id := r.ID()
	dir := path.Join(root, r.Dir())
	files, ok := readTaskFiles(fsys, dir, r, rep)
	if !ok {
		return t, false, false
	}
	ref, ok := targetReference(files.ctx, r, rep)
	if !ok {
		return t, false, false
	}
	target := targetFile(files.tm, r, rep)
	steps, tests := stepsAndTests(files.tm, files.testFile, r, rep)
	snips, gitHubFile := oracleOf(fsys, root, files.ctx, r, rep)
	t = adapt.Task{
		ID:          id,
		Language:    adapt.Python,
		Code:        files.snippet,
		Target:      adapt.Target{Path: target, Function: r.Method, Content: files.ctx},
		Files:       []adapt.File{{Path: files.testFile, Content: files.testSrc}},
		Context:     snips,
		Requirement: adapt.Requirement{Task: r.Description, Steps: steps},
		Reference:   string(ref),
		Framework:   adapt.FrameworkUnittest,
		Tests:       tests,
		Provenance:  &adapt.Provenance{Generator: generator, Source: dir},
	}
	if err := t.Validate(); err != nil {
		rep.add(id, issueMissingFile, err.Error(), "task left out")
		return t, false, false
	}
	return t, true, gitHubFile
}

// taskFiles are the files of a task's directory: the snippet, the context
// file and the test module, read and analysed.
type taskFiles struct {
	snippet, ctx      string
	testFile, testSrc string
	tm                *testModule
}

// readTaskFiles reads the files of r's task from dir; ok is false when
// one is missing or the test module has no test class (reported).
func readTaskFiles(fsys fs.FS, dir string, r *record, rep *LoadReport) (f taskFiles, ok bool) {
	id := r.ID()
	read := func(what string, names ...string) (string, bool) {
		for _, n := range names {
			b, err := fs.ReadFile(fsys, path.Join(dir, n))
			if err == nil {
				return string(b), true
			}
		}
		rep.add(id, issueMissingFile, fmt.Sprintf("no %s (%s)", what, path.Join(dir, names[0])), "task left out")
		return "", false
	}
	if f.snippet, ok = read("snippet", r.SOClone, path.Join("linked_posts", r.Method, r.SOClone)); !ok {
		return f, false
	}
	if f.ctx, ok = read("context file", r.FileName, "ctx_"+r.FileName); !ok {
		return f, false
	}
	f.testFile = r.TestModule() + ".py"
	if f.testSrc, ok = read("test module", f.testFile); !ok {
		return f, false
	}
	tm, err := analyzeTestModule(f.testSrc, r.Stem(), r.TestClass())
	if err != nil {
		rep.add(id, issueNoTestClass, fmt.Sprintf("test module %s: %v", f.testFile, err), "task left out")
		return f, false
	}
	if !tm.class || len(tm.methods) == 0 {
		rep.add(id, issueNoTestClass, fmt.Sprintf("%s has no test methods in a class %s", f.testFile, r.TestClass()), "task left out")
		return f, false
	}
	f.tm = tm
	return f, true
}

// targetReference is the definition of r's method in the context file,
// decorators included; ok is false when there is none (reported).
func targetReference(ctx string, r *record, rep *LoadReport) (ref []byte, ok bool) {
	id, fn := r.ID(), r.Method
	tree, err := syntax.Parse(syntax.Python, []byte(ctx))
	if err != nil {
		rep.add(id, issueNoTarget, err.Error(), "task left out")
		return nil, false
	}
	var defs []syntax.Func
	for _, f := range tree.Functions() {
		if f.Name == fn {
			defs = append(defs, f)
		}
	}
	if len(defs) == 0 {
		rep.add(id, issueNoTarget, fmt.Sprintf("the context file %s does not define %s", r.FileName, fn), "task left out")
		return nil, false
	}
	if len(defs) > 1 {
		rep.add(id, issueAmbiguousTarget, fmt.Sprintf("the context file defines %s %d times", fn, len(defs)), "the outermost, first definition is the target")
	}
	ref, err = syntax.Extract(syntax.Python, []byte(ctx), fn)
	if err != nil {
		rep.add(id, issueNoTarget, err.Error(), "task left out")
		return nil, false
	}
	return ref, true
}

// targetFile is the target file's name: the one the test module imports.
func targetFile(tm *testModule, r *record, rep *LoadReport) string {
	id := r.ID()
	ctxName := "ctx_" + r.Stem()
	target := r.FileName
	switch {
	case tm.imports[ctxName]:
		target = "ctx_" + r.FileName
		detail := "the test module imports the context module as " + ctxName
		if tm.imports[r.Stem()] {
			// A context file named like a library module (logging.py)
			// is imported as ctx_logging, and "import logging" is the
			// library.
			detail += " (and imports " + r.Stem() + ", another module of that name)"
		}
		rep.add(id, issueCtxImport, detail, "target file "+target)
	case tm.imports[r.Stem()]:
	case tm.mentions[ctxName]:
		target = "ctx_" + r.FileName
		rep.add(id, issueContextImport, "the test module imports neither "+r.Stem()+" nor "+ctxName+", but names "+ctxName+" in a string", "target file "+target)
	default:
		rep.add(id, issueContextImport, "the test module imports neither "+r.Stem()+" nor "+ctxName, "target file "+target)
	}
	return target
}

// stepsAndTests are the task's steps, its adaptations in order, and its
// tests, every test method of the class, each tied to the adaptations
// that list it.
func stepsAndTests(tm *testModule, testFile string, r *record, rep *LoadReport) ([]adapt.Step, []adapt.Test) {
	module, class := r.TestModule(), r.TestClass()
	stepsOf := map[string][]string{}
	var steps []adapt.Step
	for _, a := range r.Adaptations {
		steps = append(steps, adapt.Step{ID: a.Step, Type: a.Type, Description: a.Description})
		for _, name := range a.AssociatedTests {
			if !slices.Contains(tm.methods, name) {
				rep.add(r.ID(), issueUnknownTest, fmt.Sprintf("adaptation %s lists %s, which is not a test method of %s", a.Step, name, class), "dropped from the adaptation")
				continue
			}
			if !slices.Contains(stepsOf[name], a.Step) {
				stepsOf[name] = append(stepsOf[name], a.Step)
			}
		}
	}
	tests := make([]adapt.Test, 0, len(tm.methods))
	for _, m := range tm.methods {
		tests = append(tests, adapt.Test{Name: module + "." + class + "." + m, File: testFile, Steps: stepsOf[m]})
	}
	return steps, tests
}

// oracleOf is the task's Oracle context, from the GitHub file when the
// checkout has it (gitHubFile), else from the context file ctx.
func oracleOf(fsys fs.FS, root, ctx string, r *record, rep *LoadReport) (snips []adapt.Snippet, gitHubFile bool) {
	short := r.RepoName
	if i := strings.LastIndexByte(short, '/'); i >= 0 {
		short = short[i+1:]
	}
	repoDir := path.Join(root, "benchmark", strconv.Itoa(r.RepoID), short)
	repoFile := func(rel string) (string, bool) {
		if short == "" || !fs.ValidPath(path.Join(repoDir, rel)) {
			return "", false
		}
		b, err := fs.ReadFile(fsys, path.Join(repoDir, rel))
		return string(b), err == nil
	}
	oracleFrom := ctx
	if gh, ok := repoFile(r.RelativePath); ok {
		oracleFrom, gitHubFile = gh, true
	}
	repoSrc := func(rel string) (string, bool) {
		if s, ok := repoFile(rel); ok {
			return s, true
		}
		if rel == r.RelativePath {
			return oracleFrom, true
		}
		return "", false
	}
	snips, misses, err := oracleContext(oracleFrom, r.Dependencies, repoSrc)
	if err != nil {
		rep.add(r.ID(), issueOracle, err.Error(), "no Oracle context")
	}
	for _, m := range misses {
		rep.add(r.ID(), issueOracle, m, "block left out")
	}
	return snips, gitHubFile
}
