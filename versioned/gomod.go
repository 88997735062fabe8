package versioned

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/version"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// GoModules builds Go environments: it downloads the spec's modules at
// their versions through the Go module proxy into a module cache
// ("go mod download -json module@version", then "go list -m all" for the
// go.mod files of the module graph), before any test runs. Tests then
// build with the proxy off (exec.GoTest builds with GOPROXY=off and
// GOFLAGS=-mod=mod), so nothing is fetched while untrusted code is near.
//
// The environment's directory holds a go.mod requiring the modules and
// the go.sum the download verified (against the checksum database, as
// the go command does), the hashes a task's workspace needs.
//
// exec.GoTest compiles on the host and runs only the test binary in the
// sandbox; [Provider] points that build at the environment's module cache
// (adapt.RunEnv.BuildEnv), so ModCache can be any directory.
type GoModules struct {
	// Go is the go command. "" means go from PATH.
	Go string
	// ModCache is the module cache (GOMODCACHE) to download into. ""
	// means the go command's own ("go env GOMODCACHE" in this process's
	// environment).
	ModCache string
	// Proxy is GOPROXY for the downloads. "" means the go command's.
	Proxy string
}

// goBuilderName is the Manifest.Builder of environments GoModules builds.
const goBuilderName = "gomod"

func (g *GoModules) goCmd() string {
	if g.Go != "" {
		return g.Go
	}
	return "go"
}

// env is what the go command runs with: the process's environment, the
// module cache, and no workspace, toolchain switch or vendoring.
func (g *GoModules) env(modcache string) []string {
	env := append(os.Environ(), "GOFLAGS=-mod=mod -modcacherw", "GOTOOLCHAIN=local", "GOWORK=off", "CGO_ENABLED=0")
	if modcache != "" {
		env = append(env, "GOMODCACHE="+modcache)
	}
	if g.Proxy != "" {
		env = append(env, "GOPROXY="+g.Proxy)
	}
	return env
}

func (g *GoModules) goRun(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := osexec.CommandContext(ctx, g.goCmd(), args...)
	cmd.Dir, cmd.Env = dir, env
	return libapi.CommandOutput(cmd, "go")
}

// modCache resolves the module cache.
func (g *GoModules) modCache(ctx context.Context) (string, error) {
	if g.ModCache != "" {
		return filepath.Abs(g.ModCache)
	}
	out, err := g.goRun(ctx, "", g.env(""), "env", "GOMODCACHE")
	if err != nil {
		return "", err
	}
	mc := strings.TrimSpace(string(out))
	if mc == "" {
		return "", errors.New("gomod: go env GOMODCACHE is empty")
	}
	return mc, nil
}

// goDownload is one object of "go mod download -json".
type goDownload struct {
	Path, Version, Error, Sum, GoModSum string
}

// Build implements Builder.
func (g *GoModules) Build(ctx context.Context, spec EnvSpec, dir string) (Manifest, error) {
	if !spec.isGo() {
		return Manifest{}, errors.New("gomod: the spec names no Go version (a task names one as the runtime \"go1.N\")")
	}
	if !version.IsValid("go" + spec.Go) {
		return Manifest{}, fmt.Errorf("gomod: %q is not a Go version", spec.Go)
	}
	if len(spec.Packages) == 0 {
		return Manifest{}, errors.New("gomod: the spec names no modules")
	}
	mc, err := g.modCache(ctx)
	if err != nil {
		return Manifest{}, err
	}
	env := g.env(mc)
	out, err := g.goRun(ctx, dir, env, "env", "GOVERSION")
	if err != nil {
		return Manifest{}, err
	}
	tool := strings.TrimSpace(string(out))
	// The go directive of the scratch module: the spec's version, or the
	// toolchain's language version when the spec's is newer (the build
	// is then not faithful, but the modules are still fetched).
	goLine := spec.Go
	if version.Compare(tool, "go"+spec.Go) < 0 {
		goLine = strings.TrimPrefix(version.Lang(tool), "go")
	}
	var gomod strings.Builder
	fmt.Fprintf(&gomod, "module adaptbench.invalid/env\n\ngo %s\n\nrequire (\n", goLine)
	args := []string{"mod", "download", "-json"}
	for _, p := range spec.Packages {
		if p.Version == "" {
			return Manifest{}, fmt.Errorf("gomod: module %s has no version", p.Name)
		}
		fmt.Fprintf(&gomod, "\t%s %s\n", p.Name, p.Version)
		args = append(args, p.Name+"@"+p.Version)
	}
	gomod.WriteString(")\n")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod.String()), 0o644); err != nil {
		return Manifest{}, err
	}
	out, dlErr := g.goRun(ctx, dir, env, args...)
	got := map[string]string{}
	var failed []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var d goDownload
		if err := dec.Decode(&d); err == io.EOF {
			break
		} else if err != nil {
			return Manifest{}, fmt.Errorf("gomod: go mod download -json: %w", err)
		}
		if d.Error != "" {
			failed = append(failed, d.Error)
			continue
		}
		got[d.Path] = d.Version
	}
	if len(failed) > 0 {
		return Manifest{}, fmt.Errorf("gomod: %s", strings.Join(failed, "; "))
	}
	if dlErr != nil {
		return Manifest{}, fmt.Errorf("gomod: %w", dlErr)
	}
	// The go.mod files of the module graph, and the hashes of all of it
	// in go.sum.
	out, err = g.goRun(ctx, dir, env, "list", "-m", "-json", "all")
	if err != nil {
		return Manifest{}, fmt.Errorf("gomod: %w", err)
	}
	m := Manifest{Builder: goBuilderName, GoVersion: tool, ModCache: mc}
	dec = json.NewDecoder(bytes.NewReader(out))
	for {
		var mod struct {
			Path, Version string
			Main          bool
		}
		if err := dec.Decode(&mod); err == io.EOF {
			break
		} else if err != nil {
			return Manifest{}, fmt.Errorf("gomod: go list -m -json all: %w", err)
		}
		if !mod.Main {
			m.Installed = append(m.Installed, adapt.Package{Name: mod.Path, Version: mod.Version})
		}
	}
	slices.SortFunc(m.Installed, func(a, b adapt.Package) int { return strings.Compare(a.Name, b.Name) })
	if version.Compare(tool, "go"+spec.Go) < 0 {
		m.Mismatches = append(m.Mismatches, fmt.Sprintf("toolchain %s, want go%s or later", tool, spec.Go))
	}
	for _, p := range spec.Packages {
		if v := got[p.Name]; v != p.Version {
			m.Mismatches = append(m.Mismatches, fmt.Sprintf("%s %s, want %s", p.Name, v, p.Version))
		}
	}
	m.Faithful = len(m.Mismatches) == 0
	return m, nil
}

// check implements checker: every module of the spec must still be in
// the module cache (its zip and go.mod), else the cache was cleaned and
// the environment is built again.
func (g *GoModules) check(env *Env) error {
	m := env.Manifest
	if m.Builder != goBuilderName {
		return fmt.Errorf("gomod: environment %s was built by %q", env.Dir, m.Builder)
	}
	if g.ModCache != "" {
		if mc, err := filepath.Abs(g.ModCache); err != nil || mc != m.ModCache {
			return fmt.Errorf("gomod: environment %s uses module cache %s, not %s", env.Dir, m.ModCache, g.ModCache)
		}
	}
	for _, p := range m.Spec.Packages {
		base := filepath.Join(m.ModCache, "cache", "download", escapeModule(p.Name), "@v", escapeModule(p.Version))
		for _, ext := range []string{".zip", ".mod"} {
			if _, err := os.Stat(base + ext); err != nil {
				return fmt.Errorf("gomod: %s@%s is no longer in the module cache: %w", p.Name, p.Version, err)
			}
		}
	}
	return nil
}

// goSum returns the go.sum of a Go environment: the hashes of its modules
// and of the go.mod files of its module graph.
func goSum(env *Env) (string, error) {
	b, err := os.ReadFile(filepath.Join(env.Dir, "go.sum"))
	if err != nil {
		return "", fmt.Errorf("versioned: %w", err)
	}
	return string(b), nil
}

// escapeModule escapes a module path or version for the module cache:
// an upper-case letter becomes "!" and its lower case.
func escapeModule(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
