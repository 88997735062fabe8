package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/adaptbench/adaptbench/source"
)

// dataset is one published dataset: a repository at a pinned commit and
// the files taken from it.
type dataset struct {
	name   string // the directory it is written to
	repo   string // the repository's URL
	commit string // 40 hex digits
	files  []file
	dirs   []dir
	// derive, when set, makes further files from the snapshot (AdaptEval's
	// task descriptions, one file upstream per task, as one JSON Lines file).
	derive []derived
}

// file is one file copied byte for byte, checked against its SHA-256.
type file struct {
	from, to, sha256 string
}

// dir is a directory copied whole, or the files of it keep selects. Its
// files are checked against treeSHA256, the digest of the sorted "name
// sha256" lines of the files taken, each digest computed from the bytes
// written, so that a file added, dropped or changed in the copy is
// caught: the commit alone does not check them, since the git library
// does not hash an object again when it reads it (a loose object
// rewritten in a mirror's store would be written as it is).
type dir struct {
	from, to, treeSHA256 string
	// keep, when set, selects the files taken by name; the others are
	// left out, and not written.
	keep func(name string) bool
}

// oddID selects test_sample_<id>.py for an odd id: the hidden tests
// shared/data publishes (the only ones whose digests were taken).
func oddID(name string) bool {
	id, ok := strings.CutSuffix(strings.TrimPrefix(name, "test_sample_"), ".py")
	n, err := strconv.Atoi(id)
	return ok && err == nil && n%2 == 1
}

// derived is a file made from the snapshot, checked against its SHA-256.
type derived struct {
	to, sha256 string
	make       func(fs.FS) ([]byte, error)
}

// published is every dataset the tests and examples read, at the commits
// shared/data was taken from (each dataset's SOURCE.md there names them).
var published = []dataset{
	{
		name: "humaneval", repo: "https://github.com/openai/human-eval",
		commit: "6d43fb980f9fee3c892a914eda09951f772ad10d",
		files: []file{
			{"data/HumanEval.jsonl.gz", "HumanEval.jsonl.gz", "b796127e635a67f93fb35c04f4cb03cf06f38c8072ee7cee8833d7bee06979ef"},
			{"LICENSE", "LICENSE", "bcba3de214851cce46ed5af42d6698044616eeace887c3231bc7a20474ab639e"},
		},
	},
	{
		name: "classeval", repo: "https://github.com/FudanSELab/ClassEval",
		commit: "eaeac44d0d5dcd8a95feec50726d66fedc73a98f",
		files: []file{
			{"data/ClassEval_data.json", "ClassEval_data.json", "50a1ac0e4d0c238573c10c0ab11feae00b14a80ae9e4c9cc28148707ecf0b6a2"},
			{"LICENSE", "LICENSE", "3898e13baf0cb8f383766a4e0ef8d9e0c9a55aa323dcc1eae9104081dc60ac0c"},
		},
	},
	{
		name: "gitchameleon", repo: "https://github.com/mrcabbage972/GitChameleonBenchmark",
		commit: "630daf9d8b64b2884fe2d0aa165c8a612932885e",
		files: []file{
			{"dataset/dataset.jsonl", "dataset.jsonl", "978c7c581cad399989cb8399ec208ddd0edb6260ef576b3ce442aeaae455609e"},
			{"dataset/ground_truth_solutions.jsonl", "ground_truth_solutions.jsonl", "ba2e2e60d1e28d4d12d99e5964f4445ae72908dbde125e563231c8e93c16d7f1"},
			{"LICENSE", "LICENSE", "c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4"},
		},
		dirs: []dir{
			{"dataset/visible_tests", "visible_tests", "8e4caabc8ec100b73ee203c88a46990d628e246def5277b6645dd32e706a20dd", nil},
			// shared/data holds the odd ids only (164 of 329 files): no
			// digest of the others was ever taken, so they are not
			// written.
			{"dataset/hidden_tests", "hidden_tests", "b6f5a2c0c630d0a6887798ab0b5f3964a3900975c608513ba47d475ce80b7ca8", oddID},
		},
	},
	{
		name: "adapteval", repo: "https://github.com/ztwater/AdaptEval",
		commit: "653a565fe669801a5859f561c5b15d40578f7972",
		files: []file{
			{"metadata.json", "metadata.json", "24cb2b92116a41c67af8d0cc1e2570487add74e2b252ef117279fed1bbb41363"},
			{"LICENSE", "LICENSE", "1f18167ebe75f8729faa79e3dc1fb9b564e24437b935e1ecff78f178d319a4bd"},
		},
		derive: []derived{
			{"task_descriptions.jsonl", "99bec0795ecbe045740d4a30c523a65693809447c464aceb2e474fa0831733ad", taskDescriptions},
		},
	},
}

// fetch writes each dataset into out/<name>, from its repository or, when
// mirrors is set, from mirrors/<host path>.git (a local mirror, for a
// machine that reaches no git host). Every file is checked before any is
// written, and a dataset is written to a temporary directory renamed into
// place, so that out never holds a dataset that did not check.
func fetch(ctx context.Context, out, mirrors string, sets []dataset, logf func(string, ...any)) error {
	for _, d := range sets {
		repo := d.repo
		if mirrors != "" {
			repo = filepath.Join(mirrors, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(d.repo, "https://"), "github.com/"))+".git")
		}
		snap, err := source.Open(ctx, repo, d.commit)
		if err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
		got, err := collect(snap, d)
		if err != nil {
			return fmt.Errorf("%s at %s (%s): %w", d.name, d.commit[:12], repo, err)
		}
		if err := writeDataset(filepath.Join(out, d.name), got); err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
		logf("wrote %s: %d files from %s at %s, every digest checked", filepath.Join(out, d.name), len(got), d.repo, d.commit[:12])
	}
	return nil
}

// collect reads and checks every file of d: a map from its path under the
// dataset's directory to its bytes.
func collect(snap fs.FS, d dataset) (map[string][]byte, error) {
	got := map[string][]byte{}
	for _, f := range d.files {
		b, err := fs.ReadFile(snap, f.from)
		if err != nil {
			return nil, err
		}
		if err := check(f.from, b, f.sha256); err != nil {
			return nil, err
		}
		got[f.to] = b
	}
	for _, dr := range d.dirs {
		ents, err := fs.ReadDir(snap, dr.from)
		if err != nil {
			return nil, err
		}
		var lines []string
		for _, e := range ents {
			if dr.keep != nil && !dr.keep(e.Name()) {
				continue
			}
			if !e.Type().IsRegular() {
				return nil, fmt.Errorf("%s/%s: not a regular file (want only files in %s)", dr.from, e.Name(), dr.from)
			}
			b, err := fs.ReadFile(snap, path.Join(dr.from, e.Name()))
			if err != nil {
				return nil, err
			}
			got[path.Join(dr.to, e.Name())] = b
			lines = append(lines, e.Name()+" "+digest(b)+"\n")
		}
		slices.Sort(lines)
		if err := check(dr.from+" (its files' digests)", []byte(strings.Join(lines, "")), dr.treeSHA256); err != nil {
			return nil, err
		}
	}
	for _, dv := range d.derive {
		b, err := dv.make(snap)
		if err != nil {
			return nil, fmt.Errorf("making %s: %w", dv.to, err)
		}
		if err := check(dv.to+" (made from the repository)", b, dv.sha256); err != nil {
			return nil, err
		}
		got[dv.to] = b
	}
	got["SOURCE.md"] = []byte(fmt.Sprintf("# %s\n\n- Repository: %s\n- Commit: `%s`\n\nWritten by `go run ./examples/datasets`; every file was checked against its SHA-256.\n", d.name, d.repo, d.commit))
	return got, nil
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// check compares b's SHA-256 with want; an empty want is an error, since
// every file written is pinned.
func check(name string, b []byte, want string) error {
	if want == "" {
		return fmt.Errorf("%s: no pinned digest: a file written unchecked could hold anything; pin its SHA-256", name)
	}
	if got := digest(b); got != want {
		return fmt.Errorf("%s: sha256 %s, want %s (the repository's content differs from the published dataset: is the commit right?)", name, got, want)
	}
	return nil
}

// writeDataset writes files under dst, replacing what was there.
func writeDataset(dst string, files map[string][]byte) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if d := path.Dir(name); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		if err := root.WriteFile(name, files[name], 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

var taskDir = regexp.MustCompile(`^benchmark/(\d+)/dataset_items/adaptation_task_for_([^/]+)$`)

// taskDescriptions makes AdaptEval's task_descriptions.jsonl as
// shared/data/adapteval/SOURCE.md describes it: one line per
// benchmark/<id>/dataset_items/adaptation_task_for_<method>/task_description.txt,
// keys in a fixed order, sorted by (repo id, method), written as Python's
// json.dumps(ensure_ascii=False) writes them.
func taskDescriptions(snap fs.FS) ([]byte, error) {
	meta, err := fs.ReadFile(snap, "metadata.json")
	if err != nil {
		return nil, err
	}
	var repos []struct {
		ID   int    `json:"id"`
		Name string `json:"repo_name"`
	}
	if err := json.Unmarshal(meta, &repos); err != nil {
		return nil, fmt.Errorf("metadata.json: %w", err)
	}
	names := map[int]string{}
	for _, r := range repos {
		names[r.ID] = r.Name
	}
	type rec struct {
		dir, file, method, text string
		id                      int
	}
	var recs []rec
	ids, err := fs.ReadDir(snap, "benchmark")
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		items := path.Join("benchmark", id.Name(), "dataset_items")
		ents, err := fs.ReadDir(snap, items)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		for _, e := range ents {
			dir := path.Join(items, e.Name())
			m := taskDir.FindStringSubmatch(dir)
			if m == nil {
				continue
			}
			b, err := fs.ReadFile(snap, path.Join(dir, "task_description.txt"))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			} else if err != nil {
				return nil, err
			}
			if !utf8.Valid(b) {
				return nil, fmt.Errorf("%s/task_description.txt: not UTF-8", dir)
			}
			n, _ := strconv.Atoi(m[1])
			if _, ok := names[n]; !ok {
				return nil, fmt.Errorf("%s: repository id %d is not in metadata.json", dir, n)
			}
			recs = append(recs, rec{dir: dir, file: path.Join(dir, "task_description.txt"), method: m[2], text: string(b), id: n})
		}
	}
	slices.SortFunc(recs, func(a, b rec) int {
		if a.id != b.id {
			return a.id - b.id
		}
		return strings.Compare(a.method, b.method)
	})
	var out bytes.Buffer
	for _, r := range recs {
		fmt.Fprintf(&out, `{"task_path": %s, "source_file": %s, "repo_id": %d, "repo_name": %s, "method_name": %s, "task_description": %s, "sha256": %s}`+"\n",
			pyString(r.dir), pyString(r.file), r.id, pyString(names[r.id]), pyString(r.method), pyString(r.text), pyString(digest([]byte(r.text))))
	}
	return out.Bytes(), nil
}

// pyString quotes s as Python's json.dumps(s, ensure_ascii=False) does:
// only the quote, the backslash and the control characters below U+0020
// are escaped.
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
