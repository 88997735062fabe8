package mine

import (
	"bufio"
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

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// minGo is the lowest go directive a problem's workspace gets: older
// modules declare go 1.8 or none, and a main module that old loses module
// graph pruning (go.sum would need every go.mod of the graph).
const minGo = "1.21"

// release is one version of the module, fetched and verified.
type release struct {
	Version string
	Month   string // release date, YYYY-MM, from the proxy's .info
	Dir     string // the extracted source in the module cache
	Sum     string // h1: hash of the module zip
	GoMod   string // h1: hash of its go.mod
	Go      string // the go directive of a problem's workspace (>= minGo)
}

// goTool runs the go command with the generator's settings: the module
// proxy and cache the options name, module mode with a writable cache
// (so that a test's cache can be removed), no workspace, no toolchain
// switch and no cgo.
type goTool struct {
	proxy, modCache string
}

func (g goTool) env() []string {
	env := append(os.Environ(), "GOFLAGS=-mod=mod -modcacherw", "GOTOOLCHAIN=local", "GOWORK=off", "CGO_ENABLED=0")
	if g.proxy != "" {
		env = append(env, "GOPROXY="+g.proxy)
	}
	if g.modCache != "" {
		env = append(env, "GOMODCACHE="+g.modCache)
	}
	return env
}

func (g goTool) run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := osexec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, g.env()
	return libapi.CommandOutput(cmd, "go")
}

// scratch makes a directory holding a main module that requires mod at
// v (none when v is ""), with goSum as its go.sum.
func scratch(mod, v, goLine, goSum string) (string, error) {
	dir, err := os.MkdirTemp("", "adaptbench-mine-")
	if err != nil {
		return "", err
	}
	gomod := "module adaptbench.invalid/mine\n\ngo " + goLine + "\n"
	if v != "" {
		gomod += "\nrequire " + mod + " " + v + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), []byte(goSum), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// versions lists the module's release versions (no pre-releases, no
// retracted ones, as "go list -m -versions" gives them) from from to to,
// both inclusive ("" leaves that end open), in semver order.
func (g goTool) versions(ctx context.Context, mod, from, to string) ([]string, error) {
	for _, v := range []string{from, to} {
		if v != "" && !semver.IsValid(v) {
			return nil, fmt.Errorf("mine: %q is not a semantic version (want vMAJOR.MINOR.PATCH)", v)
		}
	}
	dir, err := scratch(mod, "", minGo, "")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out, err := g.run(ctx, dir, "list", "-m", "-versions", "-json", mod)
	if err != nil {
		return nil, fmt.Errorf("mine: list the versions of %s: %w", mod, err)
	}
	var m struct{ Versions []string }
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("mine: go list -m -versions -json %s: %w", mod, err)
	}
	var all, vs []string
	for _, v := range m.Versions {
		if semver.Prerelease(v) != "" || semver.Build(v) != "" {
			continue
		}
		all = append(all, v)
		if from != "" && semver.Compare(v, from) < 0 || to != "" && semver.Compare(v, to) > 0 {
			continue
		}
		vs = append(vs, v)
	}
	semver.Sort(all)
	// A bound that is no release would move the range to the next one
	// without a word: it is an error that lists the releases there are.
	for _, b := range []struct{ flag, v string }{{"From", from}, {"To", to}} {
		if b.v != "" && !slices.ContainsFunc(all, func(v string) bool { return semver.Compare(v, b.v) == 0 }) {
			return nil, fmt.Errorf("mine: %s %s: %s has no release %s (a pre-release, a retracted version or none at all); its releases: %s",
				b.flag, b.v, mod, b.v, strings.Join(all, ", "))
		}
	}
	semver.Sort(vs)
	return slices.Compact(vs), nil
}

// download fetches every version of mod through the module proxy into
// the module cache ("go mod download -json"), which checks each against
// the checksum database (GOSUMDB) as the go command does and against
// goSum's lines when the caller gives them; then it hashes each
// extracted directory again (the source this package reads) and checks
// the hash against the download's, and against goSum's line for it when
// goSum has lines for the module.
func (g goTool) download(ctx context.Context, mod string, vs []string, goSum string) ([]*release, error) {
	dir, err := scratch(mod, "", minGo, goSum)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	args := []string{"mod", "download", "-json"}
	for _, v := range vs {
		args = append(args, mod+"@"+v)
	}
	out, dlErr := g.run(ctx, dir, args...)
	want, err := sums(goSum, mod)
	if err != nil {
		return nil, err
	}
	got := map[string]*release{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var d struct{ Version, Error, Info, GoMod, Dir, Sum, GoModSum string }
		if err := dec.Decode(&d); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("mine: go mod download -json: %w", err)
		}
		if d.Error != "" {
			return nil, fmt.Errorf("mine: %s@%s: %s", mod, d.Version, d.Error)
		}
		r := &release{Version: d.Version, Dir: d.Dir, Sum: d.Sum, GoMod: d.GoModSum}
		if err := verify(mod, r, want); err != nil {
			return nil, err
		}
		if r.Month, err = releaseMonth(d.Info); err != nil {
			return nil, fmt.Errorf("mine: %s@%s: %w", mod, d.Version, err)
		}
		if r.Go, err = goDirective(d.GoMod); err != nil {
			return nil, fmt.Errorf("mine: %s@%s: %w", mod, d.Version, err)
		}
		got[d.Version] = r
	}
	if dlErr != nil {
		return nil, fmt.Errorf("mine: %w", dlErr)
	}
	rels := make([]*release, len(vs))
	for i, v := range vs {
		if rels[i] = got[v]; rels[i] == nil {
			return nil, fmt.Errorf("mine: go mod download gave nothing for %s@%s", mod, v)
		}
	}
	return rels, nil
}

// verify checks the extracted source of mod@r.Version (in r.Dir) against
// its hash, r.Sum, and both hashes against want's (go.sum's) when it has
// lines.
func verify(mod string, r *release, want map[string]string) error {
	v, dir, sum, goModSum := r.Version, r.Dir, r.Sum, r.GoMod
	if dir == "" || sum == "" {
		return fmt.Errorf("mine: go mod download gave no directory or hash for %s@%s", mod, v)
	}
	h, err := dirhash.HashDir(dir, mod+"@"+v, dirhash.Hash1)
	if err != nil {
		return fmt.Errorf("mine: hash %s@%s: %w", mod, v, err)
	}
	if h != sum {
		return fmt.Errorf("mine: %s@%s: the module cache's source (%s) hashes to %s, its download to %s: the cache was changed; run go clean -modcache", mod, v, dir, h, sum)
	}
	if len(want) > 0 {
		for key, got := range map[string]string{v: sum, v + "/go.mod": goModSum} {
			if w, ok := want[key]; !ok {
				return fmt.Errorf("mine: %s %s is not in the go.sum given (Options.GoSum): add its line or leave GoSum empty", mod, key)
			} else if w != got {
				return fmt.Errorf("mine: %s %s: checksum mismatch: downloaded %s, go.sum has %s", mod, key, got, w)
			}
		}
	}
	return nil
}

// sums reads the lines of goSum that are about mod: version (or
// version/go.mod) to hash. An ill-formed line is an error naming it.
func sums(goSum, mod string) (map[string]string, error) {
	m := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(goSum))
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 || !strings.HasPrefix(f[2], "h1:") {
			return nil, fmt.Errorf("mine: Options.GoSum line %d: %q is not \"module version h1:hash\"", n, sc.Text())
		}
		if f[0] == mod {
			m[f[1]] = f[2]
		}
	}
	return m, nil
}

func releaseMonth(info string) (string, error) {
	b, err := os.ReadFile(info)
	if err != nil {
		return "", err
	}
	var i struct{ Time string }
	if err := json.Unmarshal(b, &i); err != nil || len(i.Time) < 7 {
		return "", fmt.Errorf("%s: no release time (%v)", info, err)
	}
	return i.Time[:7], nil
}

// goDirective is the go line a problem's workspace gets for a version:
// its go.mod's, at least minGo.
func goDirective(gomod string) (string, error) {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	f, err := modfile.ParseLax(gomod, b, nil)
	if err != nil {
		return "", err
	}
	if f.Go == nil || version.Compare("go"+f.Go.Version, "go"+minGo) < 0 {
		return minGo, nil
	}
	return version.Lang("go" + f.Go.Version)[2:], nil
}

// goPackage is what "go list -json" says of a package.
type goPackage struct {
	ImportPath, Name, Dir, Export, ForTest string
	Standard                               bool
	GoFiles, TestGoFiles, XTestGoFiles     []string
	Module                                 *struct{ Path, Version string }
	Error                                  *struct{ Err string }
}

// build is a version's packages as the go command builds them.
type build struct {
	pkgs    []*goPackage          // the module's packages, in go list's order
	exports map[string]string     // import path -> export data file (no test variants)
	goSum   []string              // the go.sum lines of a workspace requiring the version
	deps    []adapt.Package       // other modules the packages and their tests need
	byPath  map[string]*goPackage // the module's packages
}

// list builds the module's packages at r with their tests' dependencies
// ("go list -e -export -deps -test"), in a main module requiring it: the
// export data gives the API, and the go.sum lines and dependency modules
// are what a problem's workspace needs. The module's code is only
// compiled here (cgo off, nothing generated or run); it runs in the
// sandbox alone, as adapt.Checker runs every test.
func (g goTool) list(ctx context.Context, mod string, r *release, goSum string) (*build, error) {
	dir, err := scratch(mod, r.Version, r.Go, goSum)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out, err := g.run(ctx, dir, "list", "-e", "-export", "-deps", "-test", "-json", mod+"/...")
	if err != nil {
		return nil, fmt.Errorf("mine: %s@%s: %w", mod, r.Version, err)
	}
	b := &build{exports: map[string]string{}, byPath: map[string]*goPackage{}}
	deps := map[adapt.Package]bool{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(goPackage)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("mine: %s@%s: go list -json: %w", mod, r.Version, err)
		}
		if p.ForTest != "" || strings.HasSuffix(p.ImportPath, ".test") || strings.Contains(p.ImportPath, " ") {
			continue
		}
		if p.Export != "" {
			b.exports[p.ImportPath] = p.Export
		}
		switch {
		case p.Module != nil && p.Module.Path == mod:
			b.pkgs = append(b.pkgs, p)
			b.byPath[p.ImportPath] = p
		case p.Module != nil && !p.Standard:
			deps[adapt.Package{Name: p.Module.Path, Version: p.Module.Version}] = true
		}
	}
	for d := range deps {
		b.deps = append(b.deps, d)
	}
	slices.SortFunc(b.deps, func(x, y adapt.Package) int { return strings.Compare(x.Name, y.Name) })
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, l := range strings.Split(string(sum), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			b.goSum = append(b.goSum, l)
		}
	}
	return b, nil
}
