package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/internal/testenv"
)

// upstream lays out a dataset's files as its repository holds them, read
// from the published copy in shared/data (AdaptEval's task descriptions
// are put back into the one file per task they were made from), with
// files beside them that the fetch must leave out.
func upstream(t *testing.T, d dataset) fstest.MapFS {
	t.Helper()
	data := testenv.DataPath(t, d.name)
	tree := fstest.MapFS{"README.md": {Data: []byte("not part of the dataset\n")}}
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(data, rel))
		require.NoError(t, err)
		return b
	}
	for _, f := range d.files {
		tree[f.from] = &fstest.MapFile{Data: read(f.to)}
	}
	for _, dr := range d.dirs {
		ents, err := os.ReadDir(filepath.Join(data, dr.to))
		require.NoError(t, err)
		for _, e := range ents {
			tree[dr.from+"/"+e.Name()] = &fstest.MapFile{Data: read(filepath.Join(dr.to, e.Name()))}
		}
	}
	if d.name == "adapteval" {
		sc := bufio.NewScanner(bytes.NewReader(read("task_descriptions.jsonl")))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r struct {
				SourceFile      string `json:"source_file"`
				TaskDescription string `json:"task_description"`
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
			tree[r.SourceFile] = &fstest.MapFile{Data: []byte(r.TaskDescription)}
			// Beside each description upstream: code the fetch leaves out.
			tree[filepath.Dir(r.SourceFile)+"/ground_truth.py"] = &fstest.MapFile{Data: []byte("pass\n")}
		}
		require.NoError(t, sc.Err())
	}
	return tree
}

// TestFetchPublished fetches every published dataset from local bare
// repositories holding its upstream layout and gets shared/data's files
// byte for byte, AdaptEval's derived task descriptions included.
func TestFetchPublished(t *testing.T) {
	mirrors := t.TempDir()
	var sets []dataset
	for _, d := range published {
		r := testenv.InitRepo(t, true)
		d.commit = r.Commit(upstream(t, d), "the published dataset")
		sets = append(sets, d)
		// As `git clone --mirror` lays them out for -mirror.
		link := filepath.Join(mirrors, filepath.FromSlash(d.repo[len("https://github.com/"):])+".git")
		require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
		require.NoError(t, os.Symlink(r.Dir, link))
	}
	out := t.TempDir()
	var logs []string
	logf := func(f string, a ...any) { logs = append(logs, f) }
	require.NoError(t, fetch(context.Background(), out, mirrors, sets, logf))
	assert.Len(t, logs, len(published))
	for _, d := range sets {
		data := testenv.DataPath(t, d.name)
		want := map[string]bool{}
		for _, f := range d.files {
			want[f.to] = true
		}
		for _, dv := range d.derive {
			want[dv.to] = true
		}
		for _, dr := range d.dirs {
			ents, err := os.ReadDir(filepath.Join(data, dr.to))
			require.NoError(t, err)
			for _, e := range ents {
				want[filepath.Join(dr.to, e.Name())] = true
			}
		}
		for rel := range want {
			exp, err := os.ReadFile(filepath.Join(data, rel))
			require.NoError(t, err)
			got, err := os.ReadFile(filepath.Join(out, d.name, rel))
			require.NoError(t, err)
			assert.True(t, bytes.Equal(exp, got), "%s/%s differs from shared/data's", d.name, rel)
		}
		source, err := os.ReadFile(filepath.Join(out, d.name, "SOURCE.md"))
		require.NoError(t, err)
		assert.Contains(t, string(source), d.commit)
		_, err = os.Stat(filepath.Join(out, d.name, "README.md"))
		assert.ErrorIs(t, err, os.ErrNotExist, "files outside the dataset are left out")
	}
	adapteval, err := os.ReadDir(filepath.Join(out, "adapteval"))
	require.NoError(t, err)
	assert.Len(t, adapteval, 4, "metadata.json, LICENSE, task_descriptions.jsonl, SOURCE.md")
}

// TestFetchRefusesChangedContent: a repository whose file differs from the
// published digest by one byte is refused with the file and both digests
// named, and nothing of that dataset is written; a commit the repository
// lacks is refused by name.
func TestFetchRefusesChangedContent(t *testing.T) {
	d := published[1] // ClassEval
	tree := upstream(t, d)
	b := bytes.Clone(tree["data/ClassEval_data.json"].Data)
	b[100] ^= 1
	tree["data/ClassEval_data.json"] = &fstest.MapFile{Data: b}
	r := testenv.InitRepo(t, true)
	good := d.commit
	d.commit = r.Commit(tree, "one byte changed")
	d.repo = r.Dir
	out := t.TempDir()
	err := fetch(context.Background(), out, "", []dataset{d}, t.Logf)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "data/ClassEval_data.json: sha256 ")
	assert.Contains(t, err.Error(), "want "+d.files[0].sha256)
	_, statErr := os.Stat(filepath.Join(out, "classeval"))
	assert.ErrorIs(t, statErr, os.ErrNotExist, "a dataset that did not check is not written")
	ents, _ := os.ReadDir(out)
	assert.Empty(t, ents, "no temporary directory is left behind")

	d.commit = good
	err = fetch(context.Background(), out, "", []dataset{d}, t.Logf)
	require.Error(t, err)
	assert.Contains(t, err.Error(), good)
}

// TestPinnedDigests: the digests fetch checks are those of shared/data's
// files, so that a fetch gives what the tests were written against.
func TestPinnedDigests(t *testing.T) {
	for _, d := range published {
		data := testenv.DataPath(t, d.name)
		for _, f := range d.files {
			b, err := os.ReadFile(filepath.Join(data, f.to))
			require.NoError(t, err)
			assert.NoError(t, check(f.to, b, f.sha256), d.name)
		}
		for _, dv := range d.derive {
			b, err := os.ReadFile(filepath.Join(data, dv.to))
			require.NoError(t, err)
			assert.NoError(t, check(dv.to, b, dv.sha256), d.name)
		}
	}
}

// TestFetchRefusesTamperedHiddenTest: a GitChameleon hidden test rewritten
// in the mirror's object store (a loose object, its name kept) is refused,
// as a tampered visible test or dataset.jsonl is, and nothing of the
// dataset is written; every file fetched has a pinned digest, so a hidden
// test no digest was taken of (an even id) is left out.
func TestFetchRefusesTamperedHiddenTest(t *testing.T) {
	d := published[2]
	require.Equal(t, "gitchameleon", d.name)
	tree := upstream(t, d)
	tree["dataset/hidden_tests/test_sample_2.py"] = &fstest.MapFile{Data: []byte("def test_unpinned():\n    pass\n")}
	const hidden = "dataset/hidden_tests/test_sample_1.py"
	r := testenv.InitRepo(t, true)
	d.commit = r.Commit(tree, "the published dataset")
	d.repo = r.Dir

	out := t.TempDir()
	require.NoError(t, fetch(context.Background(), out, "", []dataset{d}, t.Logf))
	_, err := os.Stat(filepath.Join(out, "gitchameleon", "hidden_tests", "test_sample_2.py"))
	assert.ErrorIs(t, err, os.ErrNotExist, "a file with no pinned digest is not written")
	ents, err := os.ReadDir(filepath.Join(out, "gitchameleon", "hidden_tests"))
	require.NoError(t, err)
	assert.Len(t, ents, 164)

	old := tree[hidden].Data
	r.RewriteLoose(old, bytes.Replace(old, []byte("assert"), []byte("assert True or"), 1))
	out = t.TempDir()
	err = fetch(context.Background(), out, "", []dataset{d}, t.Logf)
	require.Error(t, err, "the tampered hidden test is refused")
	assert.Contains(t, err.Error(), "hidden_tests")
	ents, _ = os.ReadDir(out)
	assert.Empty(t, ents, "nothing of the dataset is written")
}

// TestEveryFetchedFileIsPinned: every file and directory fetch writes
// has a digest, and each is that of shared/data's copy.
func TestEveryFetchedFileIsPinned(t *testing.T) {
	for _, d := range published {
		data := testenv.DataPath(t, d.name)
		for _, dr := range d.dirs {
			require.NotEmpty(t, dr.treeSHA256, "%s/%s has no pinned digest", d.name, dr.to)
			tree := fstest.MapFS{}
			ents, err := os.ReadDir(filepath.Join(data, dr.to))
			require.NoError(t, err)
			for _, e := range ents {
				b, err := os.ReadFile(filepath.Join(data, dr.to, e.Name()))
				require.NoError(t, err)
				tree[dr.from+"/"+e.Name()] = &fstest.MapFile{Data: b}
			}
			_, err = collect(tree, dataset{dirs: []dir{dr}})
			assert.NoError(t, err, "%s/%s", d.name, dr.to)
		}
	}
}
