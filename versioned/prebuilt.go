package versioned

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Prebuilt uses environments built elsewhere: the virtual environments
// directly under Dir, such as the .dataset_venvs tree the upstream Docker
// flow makes (one gcham_venv_<CompatKey> per environment) on a machine
// that reaches PyPI. For a spec it picks the environment whose
// interpreter and packages match it (asking each interpreter once what
// it has), the first by directory name when several do; with none
// matching, the one with the fewest mismatches, marked not faithful. It
// copies nothing: the venvs stay where they are, and (pitfall 6) work
// only where their base interpreters' paths exist.
type Prebuilt struct {
	// Dir holds the environments, each a directory with bin/python.
	Dir string

	mu    sync.Mutex
	found []prebuiltEnv
	err   error
	done  bool
}

type prebuiltEnv struct {
	python string
	m      Manifest
}

// scan inspects every environment under Dir once.
func (p *Prebuilt) scan(ctx context.Context) ([]prebuiltEnv, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return p.found, p.err
	}
	ents, err := os.ReadDir(p.Dir)
	if err != nil {
		return nil, fmt.Errorf("prebuilt: %w", err)
	}
	for _, e := range ents {
		py := filepath.Join(p.Dir, e.Name(), "bin", "python")
		if _, err := os.Stat(py); err != nil {
			continue
		}
		m, err := inspect(ctx, "prebuilt", py, EnvSpec{})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue // a broken venv (its base interpreter moved): unusable
		}
		p.found = append(p.found, prebuiltEnv{python: py, m: m})
	}
	p.done = true
	if len(p.found) == 0 {
		p.err = fmt.Errorf("prebuilt: no usable environment (DIR/NAME/bin/python) under %s", p.Dir)
	}
	return p.found, p.err
}

// Build implements Builder: it records the best-matching environment's
// interpreter in the manifest.
func (p *Prebuilt) Build(ctx context.Context, spec EnvSpec, dir string) (Manifest, error) {
	if spec.isGo() {
		return Manifest{}, fmt.Errorf("prebuilt: %w", errGoSpec)
	}
	if p.Dir == "" {
		return Manifest{}, errors.New("prebuilt: no Dir")
	}
	envs, err := p.scan(ctx)
	if err != nil {
		return Manifest{}, err
	}
	var best Manifest
	bestN := -1
	for _, e := range envs {
		m := compare(e.m, spec)
		if bestN < 0 || len(m.Mismatches) < bestN {
			best, bestN = m, len(m.Mismatches)
		}
	}
	return best, nil
}

// compare returns m, inspected with an empty spec, judged against spec.
func compare(m Manifest, spec EnvSpec) Manifest {
	m.Installed = slices.Clone(m.Installed)
	m.Mismatches = mismatches(m.PythonVersion, m.Installed, spec)
	m.Faithful = len(m.Mismatches) == 0
	return m
}
