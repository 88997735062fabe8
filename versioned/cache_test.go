package versioned_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/versioned"
)

// fakeBuilder records concurrency and writes a marker file.
type fakeBuilder struct {
	inFlight, peak, calls atomic.Int64
	delay                 time.Duration
	fail                  bool
}

func (b *fakeBuilder) Build(ctx context.Context, spec versioned.EnvSpec, dir string) (versioned.Manifest, error) {
	b.calls.Add(1)
	n := b.inFlight.Add(1)
	defer b.inFlight.Add(-1)
	for {
		p := b.peak.Load()
		if n <= p || b.peak.CompareAndSwap(p, n) {
			break
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "marker"), []byte(spec.Key()), 0o600); err != nil {
		return versioned.Manifest{}, err
	}
	select {
	case <-time.After(b.delay):
	case <-ctx.Done():
		return versioned.Manifest{}, ctx.Err()
	}
	if b.fail {
		return versioned.Manifest{}, errors.New("no such wheel")
	}
	return versioned.Manifest{Builder: "fake", Python: "/bin/false", Faithful: true}, nil
}

func spec(v string) versioned.EnvSpec {
	return versioned.EnvSpec{Packages: []adapt.Package{{Name: "lib", Version: v}}}
}

func TestCacheConcurrency(t *testing.T) {
	b := &fakeBuilder{delay: 50 * time.Millisecond}
	c := &versioned.Cache{Dir: t.TempDir(), Builder: b, Concurrency: 2}
	var specs []versioned.EnvSpec
	for _, v := range []string{"1", "2", "3", "4", "5", "6"} {
		specs = append(specs, spec(v), spec(v)) // every key asked for twice
	}
	envs, errs := c.ProvisionAll(context.Background(), specs)
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		if envs[i].Dir != filepath.Join(c.Dir, specs[i].Key()) || envs[i].Manifest.Key != specs[i].Key() {
			t.Errorf("spec %d: env %+v", i, envs[i])
		}
		fi, err := os.Stat(filepath.Join(envs[i].Dir, "marker"))
		if err != nil || fi.Mode().Perm()&0o044 != 0o044 {
			t.Errorf("spec %d: marker not world-readable: %v %v", i, fi.Mode(), err)
		}
	}
	if got := b.calls.Load(); got != 6 || c.Builds() != 6 {
		t.Errorf("built %d (Builds %d), want 6: one per key", got, c.Builds())
	}
	if p := b.peak.Load(); p > 2 {
		t.Errorf("%d builds at once, want at most Concurrency=2", p)
	}
	// A second pass finds everything on disk.
	envs, _ = c.ProvisionAll(context.Background(), specs)
	for _, e := range envs {
		if !e.Cached {
			t.Fatalf("not cached: %+v", e)
		}
	}
	if got := b.calls.Load(); got != 6 {
		t.Errorf("rebuilt: %d builds", got)
	}
}

func TestCacheFailure(t *testing.T) {
	dir := t.TempDir()
	b := &fakeBuilder{fail: true}
	c := &versioned.Cache{Dir: dir, Builder: b}
	if _, err := c.Provision(context.Background(), spec("1")); err == nil {
		t.Fatal("failed build returned no error")
	}
	if _, err := os.Stat(filepath.Join(dir, spec("1").Key())); !os.IsNotExist(err) {
		t.Errorf("failed build left its directory: %v", err)
	}

	// Cancelling stops a build and leaves nothing behind.
	b = &fakeBuilder{delay: time.Hour}
	c = &versioned.Cache{Dir: dir, Builder: b}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	var err error
	go func() { defer wg.Done(); _, err = c.Provision(ctx, spec("2")) }()
	for b.inFlight.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	wg.Wait()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled build: got %v, want context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(dir, spec("2").Key())); !os.IsNotExist(err) {
		t.Errorf("cancelled build left its directory: %v", err)
	}

	// A directory without a manifest is an unfinished build: rebuilt.
	unfinished := filepath.Join(dir, spec("3").Key())
	if err := os.MkdirAll(unfinished, 0o755); err != nil {
		t.Fatal(err)
	}
	b = &fakeBuilder{}
	c = &versioned.Cache{Dir: dir, Builder: b}
	env, err := c.Provision(context.Background(), spec("3"))
	if err != nil || env.Cached || b.calls.Load() != 1 {
		t.Errorf("unfinished directory: env %+v, err %v, %d builds; want one fresh build", env, err, b.calls.Load())
	}
}

// Two Caches on one directory (two processes, as far as the lock file is
// concerned) build a key once.
func TestCacheShared(t *testing.T) {
	dir := t.TempDir()
	b := &fakeBuilder{delay: 100 * time.Millisecond}
	c1 := &versioned.Cache{Dir: dir, Builder: b}
	c2 := &versioned.Cache{Dir: dir, Builder: b}
	var wg sync.WaitGroup
	envs := make([]*versioned.Env, 2)
	errs := make([]error, 2)
	for i, c := range []*versioned.Cache{c1, c2} {
		wg.Go(func() { envs[i], errs[i] = c.Provision(context.Background(), spec("1")) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if b.calls.Load() != 1 || envs[0].Cached == envs[1].Cached {
		t.Errorf("%d builds (cached %v, %v), want one build and one reuse", b.calls.Load(), envs[0].Cached, envs[1].Cached)
	}
}

// TestCacheProgress: ProvisionAll reports that it begins and each
// environment it makes ready through the SDK's one progress type, counting
// those that failed apart.
func TestCacheProgress(t *testing.T) {
	var mu sync.Mutex
	var got []report.Progress
	report := func(p report.Progress) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, p)
	}
	ok := &versioned.Cache{Dir: t.TempDir(), Builder: &fakeBuilder{}, Progress: report}
	ok.ProvisionAll(context.Background(), []versioned.EnvSpec{spec("1"), spec("2"), spec("1")})
	bad := &versioned.Cache{Dir: t.TempDir(), Builder: &fakeBuilder{fail: true}, Progress: report}
	bad.ProvisionAll(context.Background(), []versioned.EnvSpec{spec("3")})
	if len(got) != 6 {
		t.Fatalf("%d progress reports, want one as each pass begins and one per spec (6): %+v", len(got), got)
	}
	if first := got[0]; first.Phase != "environments" || first.Done != 0 || first.Total != 3 {
		t.Errorf("first report %+v, want environments 0/3 before any is made", first)
	}
	last := got[3]
	if last.Phase != "environments" || last.Done != 3 || last.Total != 3 || last.Passed != 3 {
		t.Errorf("last report of the first pass %+v, want environments 3/3, 3 provisioned", last)
	}
	if f := got[5]; f.Done != 1 || f.Total != 1 || f.Passed != 0 {
		t.Errorf("failed build reported %+v, want 1/1 with none provisioned", f)
	}
}

// TestDefaultCacheDirPerUser: the default cache is under the user's cache
// directory, not a directory shared by every user (which the first user
// to run makes, and no other can write).
func TestDefaultCacheDirPerUser(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	if got, want := versioned.DefaultCacheDir(), filepath.Join(dir, "adaptbench", "envs"); got != want {
		t.Errorf("DefaultCacheDir() = %q, want %q", got, want)
	}
}
