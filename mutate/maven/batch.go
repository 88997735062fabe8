package maven

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/internal/buildsys"
)

// The batch path of Project.Check (Config.CompileEach off): before the
// mutants are checked one by one, Prepare compiles every one of them in
// one JVM in the sandbox (batch_javac.java), each with the command line
// the javac of its own would get, so that each gets the same class files
// or the same messages, with one JVM start instead of one per mutant.
// Check then puts a mutant's class files first on the class path, or
// answers with its messages, without compiling. Mutants the batch did not
// reach (it ran out of time, say) are compiled alone as before.

// javaPrepared is what Prepare compiled of one mutant.
type javaPrepared struct {
	compile string            // javac's messages: the mutant does not compile
	classes map[string][]byte // else its class files, by slash path under the output
}

// build returns the JavaBuild that puts the mutant's classes first.
func (jp *javaPrepared) build() exec.JavaBuild {
	return exec.JavaBuildFunc(func(ctx context.Context, r exec.Runner, spec exec.JavaBuildSpec) (exec.JavaBuildResult, error) {
		out := spec.Out + "/classes"
		res := exec.JavaBuildResult{Classes: []string{out, "target/test-classes", "target/classes"}}
		return res, jp.writeClasses(filepath.Join(spec.Dir, filepath.FromSlash(out)))
	})
}

// writeClasses writes the mutant's class files under the directory root.
func (jp *javaPrepared) writeClasses(root string) error {
	for name, b := range jp.classes {
		f := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(f), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(f, b, 0o666); err != nil {
			return err
		}
	}
	return nil
}

// javacArgs is javac's command line, after the JVM's flags, for a mutant
// whose source is at src and whose classes go to out (both relative to
// the project).
func (m *Project) javacArgs(out, src string) []string {
	cp := append([]string{"target/classes", "target/test-classes"}, m.cfg.Classpath...)
	return []string{"-proc:none", "-encoding", "UTF-8", "-g", "--release", m.cfg.Release,
		"-d", out, "-cp", strings.Join(cp, ":"), src}
}

// batchDir is where Prepare compiles, in the project copy.
const batchDir = buildsys.RunDir + "/batch"

// A batchMutant is a mutant Prepare compiles: its key, file and source.
type batchMutant struct {
	key, file string
	src       []byte
}

// Prepare compiles the candidates in one JVM (for mutate.Generate) (see above). It
// returns the wall time of the batch and a release that forgets the
// mutants.
func (m *Project) Prepare(ctx context.Context, cands []*mutate.Candidate) (time.Duration, func(), error) {
	if m.cfg.CompileEach {
		return 0, func() {}, nil
	}
	var ms []batchMutant
	seen := map[string]bool{}
	for _, c := range cands {
		if c.Src == nil || c.File == "" || strings.ContainsAny(c.File, "\t\n") {
			continue
		}
		k := buildsys.MutantKey(c.File, c.Src)
		if seen[k] || m.prepared.Has(k) { // or by an earlier Prepare not yet released
			continue
		}
		seen[k] = true
		ms = append(ms, batchMutant{k, c.File, c.Src})
	}
	if len(ms) < 2 {
		return 0, func() {}, nil // one javac is as cheap
	}
	tool, err := batchJavac()
	if err != nil {
		return 0, func() {}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	host := filepath.Join(m.dir, filepath.FromSlash(batchDir))
	os.RemoveAll(host)
	defer os.RemoveAll(host)
	if err := os.MkdirAll(filepath.Join(host, "tool"), 0o777); err != nil {
		return 0, func() {}, fmt.Errorf("mutate: %w", err)
	}
	for name, b := range tool {
		if err := os.WriteFile(filepath.Join(host, "tool", name), b, 0o644); err != nil {
			return 0, func() {}, fmt.Errorf("mutate: %w", err)
		}
	}
	var list strings.Builder
	for i, mt := range ms {
		dir := path.Join(batchDir, strconv.Itoa(i))
		if err := os.MkdirAll(filepath.Join(m.dir, filepath.FromSlash(dir), "src"), 0o777); err != nil {
			return 0, func() {}, fmt.Errorf("mutate: %w", err)
		}
		if err := os.MkdirAll(filepath.Join(m.dir, filepath.FromSlash(dir), "classes"), 0o777); err != nil {
			return 0, func() {}, fmt.Errorf("mutate: %w", err)
		}
		src := path.Join(dir, "src", path.Base(mt.file))
		if err := os.WriteFile(filepath.Join(m.dir, filepath.FromSlash(src)), mt.src, 0o666); err != nil {
			return 0, func() {}, fmt.Errorf("mutate: %w", err)
		}
		list.WriteString(dir)
		for _, a := range m.javacArgs(dir+"/classes", src) {
			if strings.ContainsAny(a, "\t\n") {
				return 0, func() {}, nil // not in the list's format: each is compiled alone
			}
			list.WriteString("\t" + a)
		}
		list.WriteString("\n")
	}
	if err := os.WriteFile(filepath.Join(host, "list"), []byte(list.String()), 0o666); err != nil {
		return 0, func() {}, fmt.Errorf("mutate: %w", err)
	}
	// The time limits of one javac, for each mutant.
	lim := m.cfg.Limits.WithDefaults()
	if lim.CPUTime > 0 {
		lim.CPUTime *= time.Duration(len(ms))
	}
	if lim.WallTime > 0 {
		lim.WallTime *= time.Duration(len(ms))
	}
	args := append([]string{"java"}, exec.DefaultJVMFlags...)
	args = append(args, "-cp", batchDir+"/tool", batchJavacClass, batchDir+"/list")
	start := time.Now()
	_, err = m.runner.Run(ctx, exec.Job{Dir: m.dir, Args: args, Limits: lim})
	took := time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return took, func() {}, ctx.Err()
		}
		return took, func() {}, nil // each is compiled alone, where a harness failure is the mutant's
	}
	return took, m.prepared.Keep(m.batchResults(ms)), nil
}

// batchResults reads what the batch decided about each of ms, by
// mutant key: its compiler messages or its classes; a mutant the batch
// did not reach is left out (compiled alone).
func (m *Project) batchResults(ms []batchMutant) map[string]*javaPrepared {
	found := map[string]*javaPrepared{}
	for i, mt := range ms {
		dir := path.Join(batchDir, strconv.Itoa(i))
		st, err := exec.ReadWorkspaceFile(m.dir, dir+"/javac.status", 64)
		if err != nil {
			continue // not reached: compiled alone
		}
		status, err := strconv.Atoi(string(st))
		if err != nil {
			continue
		}
		msgs, err := exec.ReadWorkspaceFile(m.dir, dir+"/javac.out", 16*exec.MiB)
		if err != nil {
			continue
		}
		if status != 0 {
			msg := strings.TrimSpace(string(msgs))
			msg = strings.ReplaceAll(msg, path.Join(dir, "src", path.Base(mt.file)), mt.file)
			if msg == "" {
				msg = fmt.Sprintf("javac failed without a message: exit status %d", status)
			}
			found[mt.key] = &javaPrepared{compile: msg}
			continue
		}
		classes, err := readClasses(m.dir, dir+"/classes")
		if err != nil {
			continue
		}
		found[mt.key] = &javaPrepared{classes: classes}
	}
	return found
}

// readClasses reads the .class files under rel in the project, by slash
// path under rel.
func readClasses(root, rel string) (map[string][]byte, error) {
	out := map[string][]byte{}
	base := filepath.Join(root, filepath.FromSlash(rel))
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		name, _ := filepath.Rel(base, p)
		name = filepath.ToSlash(name)
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".class") {
			return fmt.Errorf("mutate: %s/%s: not a class file", rel, name)
		}
		b, err := exec.ReadWorkspaceFile(root, rel+"/"+name, 64*exec.MiB)
		if err != nil {
			return err
		}
		out[name] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("mutate: %s: no class files", rel)
	}
	return out, nil
}

const batchJavacClass = "AdaptbenchBatchJavac"

//go:embed batch_javac.java
var batchJavacSource string

// batchJavac compiles the batch compiler with the host's javac, once per
// process, and returns its class files.
var batchJavac = sync.OnceValues(func() (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "adaptbench-batch-javac-")
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	defer os.RemoveAll(dir)
	if _, err := compileTool(dir, batchJavacClass, batchJavacSource, nil); err != nil {
		return nil, err
	}
	return readClasses(dir, "classes")
})
