package adapteval

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
)

// record is one AdaptEval task as metadata.json describes it: a linked
// method of a source file of a repository, with its annotated adaptations,
// its dependencies and (when found) its task-level description.
type record struct {
	// RepoID is the repository's id (the <repo id> of benchmark/<repo id>/).
	RepoID int
	// RepoName is "owner/name" on GitHub.
	RepoName string
	// FileName is the adapted file's name ("utils.py"); the ground-truth
	// context file in dataset_items/ has this name.
	FileName string
	// RelativePath is the file's path in the GitHub repository.
	RelativePath string
	// Method is the name of the adapted (target) function.
	Method string
	// SOClone is the file name of the reused Stack Overflow snippet.
	SOClone string
	// Adaptations are the annotated adaptations, in order.
	Adaptations []adaptation
	// Dependencies are the task-level dependencies, the source of the
	// Oracle context.
	Dependencies dependencies
	// Description is the task-level requirement, verbatim (trailing
	// newline included), or "" when none was found.
	Description string
}

// ID returns the task's ID in the artifact's namespace,
// "<repo id>.<file stem>.<method>", such as "10.utils.add_logging_level".
func (r *record) ID() string {
	return strconv.Itoa(r.RepoID) + "." + r.Stem() + "." + r.Method
}

// Stem returns the file name up to its first dot, as the artifact names
// test modules: "utils" for "utils.py".
func (r *record) Stem() string {
	stem, _, _ := strings.Cut(r.FileName, ".")
	return stem
}

// Dir returns the task's dataset directory, relative to the checkout:
// "benchmark/<repo id>/dataset_items".
func (r *record) Dir() string {
	return path.Join("benchmark", strconv.Itoa(r.RepoID), "dataset_items")
}

// TestModule returns the name of the task's unittest module,
// "test_<file stem>_<method>".
func (r *record) TestModule() string { return "test_" + r.Stem() + "_" + r.Method }

// TestClass returns the name of the task's unittest class: "Test" and the
// method name in CamelCase ("TestAddLoggingLevel"), as the artifact builds
// it.
func (r *record) TestClass() string { return "Test" + snakeToCamel(r.Method) }

// snakeToCamel is the artifact's DataUtil.snake_to_camel: split on "_",
// upper-case the first letter of each non-empty word, keep the rest.
func snakeToCamel(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		if w == "" {
			continue
		}
		r := []rune(w)
		b.WriteString(strings.ToUpper(string(r[0])))
		b.WriteString(string(r[1:]))
	}
	return b.String()
}

// adaptation is one annotated adaptation of a task.
type adaptation struct {
	// ID is the id in the data. It is not always unique in a task, nor
	// consecutive; Step is.
	ID int `json:"id"`
	// Type is the type label, "<Category>.<Type>".
	Type        string `json:"type"`
	Description string `json:"description"`
	// Dependencies are what the adaptation needs.
	Dependencies dependencies `json:"dependencies"`
	// AssociatedTests are the names of the test methods (of the task's
	// test class) that check the adaptation.
	AssociatedTests []string `json:"associated_tests"`
	// Step is the ID of the adaptation as an adapt.Step: ID as a decimal
	// string, with "#2", "#3", … added to the second and later adaptations
	// of a task that repeat an id.
	Step string `json:"-"`
}

// dependencies are the four kinds of dependencies AdaptEval annotates.
type dependencies struct {
	InClass struct {
		// Fields are "Class" or "Class.attr".
		Fields []string `json:"fields"`
		// Methods are "Class.method".
		Methods []string `json:"methods"`
	} `json:"in_class"`
	InFile struct {
		Variables []string `json:"variables"`
		Functions []string `json:"functions"`
	} `json:"in_file"`
	InRepo struct {
		// Variables and Functions are "path/in/repo.py::Name" or
		// "path/in/repo.py::Class.attr".
		Variables []string `json:"variables"`
		Functions []string `json:"functions"`
	} `json:"in_repo"`
	// External are fully qualified names ("numpy.array") or modules.
	External []string `json:"external"`
}

// Len returns the number of dependencies.
func (d *dependencies) Len() int {
	return len(d.InClass.Fields) + len(d.InClass.Methods) + len(d.InFile.Variables) + len(d.InFile.Functions) +
		len(d.InRepo.Variables) + len(d.InRepo.Functions) + len(d.External)
}

// The JSON shape of metadata.json.
type (
	metaRepo struct {
		ID       int        `json:"id"`
		RepoName string     `json:"repo_name"`
		SrcFiles []metaFile `json:"src_files"`
	}
	metaFile struct {
		FileName      string       `json:"file_name"`
		RelativePath  string       `json:"relative_path"`
		LinkedMethods []metaMethod `json:"linked_methods"`
	}
	metaMethod struct {
		MethodName           string       `json:"method_name"`
		SOClone              string       `json:"so_clone"`
		AnnotatedAdaptations []adaptation `json:"annotated_adaptations"`
		Dependencies         dependencies `json:"dependencies"`
	}
)

// descLine is one line of task_descriptions.jsonl, the digest of the task
// descriptions kept beside metadata.json in adaptbench's shared data.
type descLine struct {
	RepoID      int    `json:"repo_id"`
	MethodName  string `json:"method_name"`
	Description string `json:"task_description"`
	SHA256      string `json:"sha256"`
}

// Files that readMetadata reads.
const (
	metadataFile     = "metadata.json"
	descriptionsFile = "task_descriptions.jsonl"
)

// errFormat is wrapped by the errors about input that is not in
// AdaptEval's format.
var errFormat = errors.New("adapteval: bad format")

// readMetadata reads root/metadata.json from fsys and returns one record per
// linked method, in the order of the file, with the task-level
// descriptions found either in root/task_descriptions.jsonl or in the
// repository layout
// (benchmark/<repo id>/dataset_items/adaptation_task_for_<method>/task_description.txt).
//
// It tolerates what the published data does and lists it in the report:
// adaptation ids that repeat (made unique in Adaptation.Step) or skip
// numbers, adaptations with no associated test, unknown type labels,
// snippets that are not "_clean.py" files, missing descriptions. An error
// is returned only when metadata.json cannot be read or is not the
// expected JSON.
func readMetadata(fsys fs.FS, root string) ([]record, *LoadReport, error) {
	name := path.Join(root, metadataFile)
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, nil, fmt.Errorf("adapteval: %w", err)
	}
	var repos []metaRepo
	if err := json.Unmarshal(raw, &repos); err != nil {
		return nil, nil, &adapt.ParseError{Path: name, Err: fmt.Errorf("%w: want a JSON array of repositories: %v", errFormat, err)}
	}
	rep := &LoadReport{Repos: len(repos)}
	var recs []record
	for i, r := range repos {
		if r.ID <= 0 && r.RepoName == "" {
			return nil, nil, &adapt.ParseError{Path: name, Err: fmt.Errorf("%w: repository %d has no id and no repo_name", errFormat, i)}
		}
		for _, f := range r.SrcFiles {
			for _, m := range f.LinkedMethods {
				rec := record{
					RepoID: r.ID, RepoName: r.RepoName, FileName: f.FileName, RelativePath: f.RelativePath,
					Method: m.MethodName, SOClone: m.SOClone, Adaptations: m.AnnotatedAdaptations, Dependencies: m.Dependencies,
				}
				if rec.Method == "" || rec.FileName == "" {
					return nil, nil, &adapt.ParseError{Path: name, Err: fmt.Errorf("%w: repository %d has a linked method without method_name or file_name", errFormat, r.ID)}
				}
				checkRecord(&rec, rep)
				recs = append(recs, rec)
			}
		}
	}
	rep.Tasks = len(recs)
	seen := map[string]bool{}
	for _, r := range recs {
		rep.Adaptations += len(r.Adaptations)
		if seen[r.ID()] {
			rep.add(r.ID(), issueDuplicateTask, "two linked methods have this id", "both kept; Load keeps the first")
		}
		seen[r.ID()] = true
	}
	if err := attachDescriptions(fsys, root, recs, rep); err != nil {
		return nil, nil, err
	}
	return recs, rep, nil
}

// checkRecord makes step IDs unique and reports the record's
// irregularities.
func checkRecord(r *record, rep *LoadReport) {
	id := r.ID()
	if !strings.HasSuffix(r.SOClone, "_clean.py") {
		rep.add(id, issueSnippetName, fmt.Sprintf("so_clone %q is not a _clean.py file (the artifact refuses it)", r.SOClone), "used as it is")
	}
	if len(r.Adaptations) == 0 {
		rep.add(id, issueNoAdaptations, "no annotated adaptations", "kept: only task-level scores")
	}
	count := map[int]int{}
	for i := range r.Adaptations {
		a := &r.Adaptations[i]
		count[a.ID]++
		a.Step = strconv.Itoa(a.ID)
		if n := count[a.ID]; n > 1 {
			a.Step += "#" + strconv.Itoa(n)
			rep.add(id, issueDuplicateID, fmt.Sprintf("adaptation %d (position %d) repeats id %d", a.ID, i, a.ID), "step id "+a.Step)
		}
		if i > 0 && a.ID != r.Adaptations[i-1].ID && a.ID != r.Adaptations[i-1].ID+1 {
			rep.add(id, issueSkippedID, fmt.Sprintf("adaptation id %d follows %d", a.ID, r.Adaptations[i-1].ID), "ids kept; adaptations are keyed by position")
		} else if i == 0 && a.ID != 0 {
			rep.add(id, issueSkippedID, fmt.Sprintf("the first adaptation id is %d", a.ID), "ids kept; adaptations are keyed by position")
		}
		if len(a.AssociatedTests) == 0 {
			rep.add(id, issueUntested, fmt.Sprintf("adaptation %s (%s) has no associated test", a.Step, a.Type), "no adaptation-level test; scored as solved (vacuously), like the artifact")
		}
		if _, ok := typeByLabel(a.Type); !ok {
			rep.add(id, issueUnknownType, fmt.Sprintf("adaptation %s has type %q, not one of the 38", a.Step, a.Type), "kept; reported under its own label")
		}
	}
}

func attachDescriptions(fsys fs.FS, root string, recs []record, rep *LoadReport) error {
	type key struct {
		repo   int
		method string
	}
	byKey := map[key]descLine{}
	name := path.Join(root, descriptionsFile)
	raw, err := fs.ReadFile(fsys, name)
	switch {
	case err == nil:
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
		for line := 1; sc.Scan(); line++ {
			b := bytes.TrimSpace(sc.Bytes())
			if len(b) == 0 {
				continue
			}
			var d descLine
			if err := json.Unmarshal(b, &d); err != nil {
				return &adapt.ParseError{Path: name, Line: line, Err: fmt.Errorf("%w: want a task description record: %v", errFormat, err)}
			}
			byKey[key{d.RepoID, d.MethodName}] = d
		}
		if err := sc.Err(); err != nil {
			return &adapt.ParseError{Path: name, Err: err}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("adapteval: %w", err)
	}
	for i := range recs {
		r := &recs[i]
		if d, ok := byKey[key{r.RepoID, r.Method}]; ok {
			r.Description = d.Description
			if d.SHA256 != "" {
				sum := sha256.Sum256([]byte(d.Description))
				if hex.EncodeToString(sum[:]) != d.SHA256 {
					rep.add(r.ID(), issueDescription, "the task description does not match its sha256 in "+descriptionsFile, "used as it is")
				}
			}
			continue
		}
		p := path.Join(root, r.Dir(), "adaptation_task_for_"+r.Method, "task_description.txt")
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			rep.add(r.ID(), issueDescription, "no task description ("+p+")", "empty task-level requirement")
			continue
		}
		r.Description = string(b)
	}
	return nil
}
