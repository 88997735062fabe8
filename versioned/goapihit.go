package versioned

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// A Go answer's API hits are resolved by identity when its task is a
// module workspace (a go.mod among its files, as a mined problem's): the
// answer and the task's other Go files are type-checked (go/types)
// against the modules the go.mod requires, whose export data "go list
// -export -deps" builds from the go command's module cache with the proxy
// off; an API is hit when the answer uses its object (package path and
// name, a method or field by its type), in a call that compiles. An
// answer whose modules are not in the module cache is not scored.

// goAPIHit reports whether a Go answer uses every API of apis, resolved
// by identity, and whether it could be scored that way; ok is false for a
// task that is no module workspace (the syntactic apiHit scores it).
func goAPIHit(t *adapt.Task, code, modcache string, apis []string) (hit, scored, ok bool) {
	files := map[string]string{}
	var gomod, gosum string
	for _, f := range t.Files {
		switch {
		case f.Path == "go.mod":
			gomod = f.Content
		case f.Path == "go.sum":
			gosum = f.Content
		case strings.HasSuffix(f.Path, ".go") && !strings.Contains(f.Path, "/"):
			files[f.Path] = f.Content
		}
	}
	if gomod == "" || t.Target.Path == "" || strings.Contains(t.Target.Path, "/") {
		return false, false, false
	}
	files[t.Target.Path] = code
	imp, err := goExports(gomod, gosum, modcache, files)
	if err != nil {
		return false, false, true
	}
	uses, err := libapi.Uses(imp, files, t.Target.Path)
	if err != nil {
		return false, true, true // an answer that does not parse hits nothing
	}
	return libapi.HitsAll(uses, apis), true, true
}

// exportCache keeps the export data files of each workspace and import
// set (they live in the go command's build cache).
var exportCache sync.Map // key -> map[string]string

// goExports returns an importer of the packages the files import and
// their dependencies, from the export data "go list -export -deps" builds
// in a workspace with the go.mod and go.sum given (the files themselves
// are not compiled). modcache is the module cache the task's environment
// was built from ("" means the go command's own).
func goExports(gomod, gosum, modcache string, files map[string]string) (types.Importer, error) {
	var paths []string
	fset := token.NewFileSet()
	for _, src := range files {
		f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range f.Imports {
			if p, err := strconv.Unquote(im.Path.Value); err == nil && p != "C" && !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
	}
	slices.Sort(paths)
	h := sha256.Sum256([]byte(gomod + "\x00" + gosum + "\x00" + strings.Join(paths, "\x00") + "\x00" + modcache + "\x00" + os.Getenv("GOMODCACHE")))
	key := string(h[:])
	exports, cached := exportCache.Load(key)
	if !cached {
		m, err := goListExports(gomod, gosum, modcache, paths)
		if err != nil {
			return nil, err
		}
		exports, _ = exportCache.LoadOrStore(key, m)
	}
	m := exports.(map[string]string)
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f := m[path]
		if f == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(f)
	}), nil
}

func goListExports(gomod, gosum, modcache string, paths []string) (map[string]string, error) {
	m := map[string]string{}
	if len(paths) == 0 {
		return m, nil
	}
	dir, err := os.MkdirTemp("", "adaptbench-apihit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for name, content := range map[string]string{"go.mod": gomod, "go.sum": gosum} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	cmd := osexec.CommandContext(context.Background(), "go", append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Export"}, paths...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "CGO_ENABLED=0")
	if modcache != "" {
		cmd.Env = append(cmd.Env, "GOMODCACHE="+modcache)
	}
	out, err := libapi.CommandOutput(cmd, "go")
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if p.Export != "" {
			m[p.ImportPath] = p.Export
		}
	}
	// -e lists a package whose module is not in the cache without its
	// export data: the answer's imports then cannot be resolved, which is
	// the harness's gap (the wrong module cache), not the answer's miss.
	for _, path := range paths {
		if m[path] == "" {
			return nil, fmt.Errorf("no export data for %q: its module is not in the module cache %s", path, cmp.Or(modcache, "(the go command's)"))
		}
	}
	return m, nil
}
