//go:build ignore

// gen_gotasks writes gotasks.jsonl, the embedded Go version-conditioned
// problems, from their sources in testdata/goproblems (adapt.LoadDir's
// directory format). For each problem it resolves the module at both its
// stated version and the other one through the Go module proxy ("go mod
// tidy" in a scratch module), checks that tidy leaves the stated
// version's go.mod as written, adds a go.sum holding the hashes of both
// versions (so that a workspace switched to the other version builds
// with the proxy off) and records the release month of each version from
// the proxy's .info in the task's Detail (and the year label). It needs
// the network (the Go module proxy).
//
//	go generate ./versioned   (or: cd versioned && go run gen_gotasks.go)
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned"
)

func main() {
	tasks, err := adapt.LoadDir(os.DirFS("testdata/goproblems"), ".")
	if err != nil {
		log.Fatal(err)
	}
	for i := range tasks {
		if err := complete(&tasks[i]); err != nil {
			log.Fatalf("%s: %v", tasks[i].ID, err)
		}
	}
	var b bytes.Buffer
	if err := adapt.WriteTasks(&b, tasks); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("gotasks.jsonl", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %d tasks to gotasks.jsonl", len(tasks))
}

func complete(t *adapt.Task) error {
	d, err := versioned.DetailOf(t)
	if err != nil {
		return err
	}
	mod, ver, other := t.Labels["library"], d.Version, d.OtherVersion
	sums := map[string]bool{}
	for _, v := range []string{ver, other} {
		at, err := versioned.AtVersion(*t, v)
		if err != nil {
			return err
		}
		dir, err := os.MkdirTemp("", "gen-gotasks-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		files := append([]adapt.File{{Path: at.Target.Path, Content: at.Target.Content}}, at.Files...)
		var gomod string
		for _, f := range files {
			if f.Path == "go.sum" {
				continue
			}
			if f.Path == "go.mod" {
				gomod = f.Content
			}
			if err := os.WriteFile(filepath.Join(dir, f.Path), []byte(f.Content), 0o644); err != nil {
				return err
			}
		}
		if _, err := goCmd(dir, "mod", "tidy"); err != nil {
			return err
		}
		tidy, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			return err
		}
		if v == ver && string(tidy) != gomod {
			return fmt.Errorf("go mod tidy changes go.mod at %s:\n%s\nwant:\n%s", v, tidy, gomod)
		}
		sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
		if err != nil {
			return err
		}
		for _, l := range strings.Split(string(sum), "\n") {
			if l != "" {
				sums[l] = true
			}
		}
		out, err := goCmd(dir, "list", "-m", "-json", mod+"@"+v)
		if err != nil {
			return err
		}
		var info struct{ Time string }
		if err := json.Unmarshal(out, &info); err != nil || len(info.Time) < 7 {
			return fmt.Errorf("no release time for %s@%s: %v", mod, v, err)
		}
		if v == other {
			d.OtherRelease = info.Time[:7]
		} else {
			d.Release = info.Time[:7]
		}
	}
	if err := versioned.SetDetail(t, d); err != nil {
		return err
	}
	lines := make([]string, 0, len(sums))
	for l := range sums {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	t.Files = slices.DeleteFunc(t.Files, func(f adapt.File) bool { return f.Path == "go.sum" })
	t.Files = append(t.Files, adapt.File{Path: "go.sum", Content: strings.Join(lines, "\n") + "\n"})
	slices.SortFunc(t.Files, func(a, b adapt.File) int { return strings.Compare(a.Path, b.Path) })
	return nil
}

func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := osexec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}
