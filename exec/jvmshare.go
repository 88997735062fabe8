package exec

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// The Java drivers start a JVM or two per check (javac, then the test JVM),
// and most of each start is spent loading and linking the same classes:
// javac's, and the JUnit Platform's with the reporter. A class-data sharing
// archive (JDK 13's dynamic archive, -XX:ArchiveClassesAtExit) holds them
// parsed and verified, and a JVM started with -XX:SharedArchiveFile maps it
// instead: 1.37x less CPU per check here, javac and the test JVM together
// (BenchmarkJUnitClassSharing).
//
// An archive holds only classes no job can change. It is made on the host
// from code this package trusts (javac compiling the reporter's source; the
// reporter running the warm-up tests), once per machine and toolchain, in
// the user's cache directory, and a job sees it read-only. The test JVM's
// class path starts with the JUnit jars and the warm-up jar beside the
// archive, and its module path is the reporter's modular jar there, as
// when it was made, so that the JVM may use it; the workspace's classes
// come after them (which also means a workspace class can never stand in
// for the reporter or for JUnit). A JVM that cannot use
// an archive (another JDK, a jar changed since) runs without it, silently
// (-Xlog:cds*=off); an archive that could not be made leaves the drivers
// as they were without one.

// minShareMemory is the least memory limit of a job whose JVM maps an
// archive: mapping one reserves some 60MiB more address space, and javac
// under an RLIMIT_AS of 512MiB then fails to start its threads.
const minShareMemory = 768 * MiB

// jvmShare is a class-data sharing archive and what a JVM needs to use it.
type jvmShare struct {
	// dir holds the archive (and the reporter's jars): a job needs it
	// read-only.
	dir string
	// archive is the .jsa file in dir.
	archive string
	// reporter is the reporter's modular jar in dir, and warmup the jar
	// of the warm-up tests, for the test JVM's archive.
	reporter, warmup string
}

// flags are the JVM flags that use the archive.
func (s *jvmShare) flags() []string {
	return []string{"-XX:SharedArchiveFile=" + s.archive, "-Xlog:cds*=off"}
}

// jvmShares remembers each archive this process looked for, made or not.
var jvmShares sync.Map // key -> *jvmShareOnce

type jvmShareOnce struct {
	once  sync.Once
	share *jvmShare
}

// shareDir is where archives are kept: one directory per archive, named
// after a hash of everything it depends on. A variable for tests.
var shareDir = func() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "adaptbench", "jvm-share")
}

// javacShare returns the archive of javac's classes for a javac started
// with flags (passed with -J), or nil when there is none and none can be
// made.
func javacShare(ctx context.Context, javac string, flags []string) *jvmShare {
	return findShare(ctx, shareSpec{kind: "javac", tool: javac, flags: flags, key: []byte(junitReporterSource),
		dump: func(ctx context.Context, tool string, s *jvmShare, archive string) error {
			jvm := append(slices.Clone(flags), "-XX:ArchiveClassesAtExit="+archive, "-Xlog:cds*=off")
			_, err := hostJavac{tool, jvm, absPaths(DefaultJUnitClasspath)}.compileReporterModule(ctx)
			return err
		}})
}

//go:embed jvmshare_warmup_jupiter.java
var warmupJupiterSource string

//go:embed jvmshare_warmup_vintage.java
var warmupVintageSource string

// warmups are the test classes the reporter runs while the test JVM's
// archive is made, by class name: those that compile against the class
// path go into the reporter's jar (a class the reporter never runs in a
// job: it looks for tests in the build's class directories only).
var warmups = [...]struct{ class, source string }{
	{"AdaptbenchWarmupJupiter", warmupJupiterSource},
	{"AdaptbenchWarmupVintage", warmupVintageSource},
}

// junitShare returns the archive of the test JVM's classes for a JVM
// started with flags and the class path javac.cp followed by the
// reporter's jar, or nil when there is none and none can be made. javac
// compiles the warm-up tests on the host.
func junitShare(ctx context.Context, java string, javac hostJavac, flags []string, reporter reporterClasses) *jvmShare {
	cp := javac.cp
	if len(absPaths(cp)) != len(cp) {
		return nil // a relative entry would be the workspace's
	}
	var classes []string
	jars := func() ([]byte, []byte, error) {
		warm := reporterClasses{}
		for _, w := range warmups {
			compiled, err := javac.compile(ctx, w.class, w.source)
			if err != nil {
				continue // the class path lacks this engine or its API
			}
			maps.Copy(warm, compiled)
			classes = append(classes, w.class)
		}
		rj, err := reporter.jar()
		if err != nil {
			return nil, nil, err
		}
		wj, err := warm.jar()
		return rj, wj, err
	}
	key := junitModuleInfo + "\x00" + junitReporterSource + "\x00" + warmupJupiterSource + "\x00" + warmupVintageSource
	return findShare(ctx, shareSpec{kind: "junit", tool: java, cp: cp, flags: flags, key: []byte(key), jars: jars, dump: func(ctx context.Context, tool string, s *jvmShare, archive string) error {
		tmp, err := os.MkdirTemp("", "adaptbench-jvm-share-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := os.Mkdir(filepath.Join(tmp, "classes"), 0o755); err != nil {
			return err
		}
		args := append(slices.Clone(flags), "-XX:ArchiveClassesAtExit="+archive, "-Xlog:cds*=off")
		args = append(args, junitModuleFlags(s.reporter, append(slices.Clone(cp), s.warmup))...)
		args = append(args, filepath.Join(tmp, "results.jsonl"), filepath.Join(tmp, "classes"), "--")
		return runTrusted(ctx, tool, append(args, classes...)...)
	}})
}

// shareSpec says which archive findShare finds or makes: the archive of
// kind for tool, made by dump (writing it to archive). cp are the jars on
// the class path before the warm-up jar, which jars makes with the
// reporter's when it is not nil; flags are the JVM's; key is the rest of
// what the archive depends on (the sources of the classes it is made
// with).
type shareSpec struct {
	kind, tool string
	cp, flags  []string
	key        []byte
	jars       func() (reporter, warmup []byte, err error)
	dump       func(ctx context.Context, tool string, s *jvmShare, archive string) error
}

// findShare returns the archive sp names, made if it is not in the cache
// yet.
func findShare(ctx context.Context, sp shareSpec) *jvmShare {
	kind, tool, cp, flags, key, jars, dump := sp.kind, sp.tool, sp.cp, sp.flags, sp.key, sp.jars, sp.dump
	root := shareDir()
	if root == "" {
		return nil
	}
	path, err := osexec.LookPath(tool)
	if err != nil {
		return nil
	}
	name, err := shareKey(kind, path, cp, flags, key)
	if err != nil {
		return nil
	}
	v, _ := jvmShares.LoadOrStore(root+"\x00"+name, &jvmShareOnce{})
	o := v.(*jvmShareOnce)
	o.once.Do(func() { o.share = makeShare(ctx, filepath.Join(root, name), path, jars, dump) })
	return o.share
}

// shareKey names an archive after what it depends on: the tool and the
// JDK's class library (path, size and time), the class path's jars, the
// JVM's flags and key.
func shareKey(kind, tool string, cp, flags []string, key []byte) (string, error) {
	real, err := filepath.EvalSymlinks(tool)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", kind, real)
	stamp := func(p string) error {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	}
	// bin/java (or javac) and lib/modules, the JDK's class library.
	if err := stamp(real); err != nil {
		return "", err
	}
	if err := stamp(filepath.Join(filepath.Dir(filepath.Dir(real)), "lib", "modules")); err != nil {
		return "", err
	}
	for _, p := range cp {
		if err := stamp(p); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(h, "%q\x00", flags)
	h.Write(key)
	return kind + "-" + hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// makeShare returns the archive in dir, making it first if it is not there:
// under an exclusive lock, so that processes that need it at once make it
// once; written in place (a JVM records the class path it was made with)
// and renamed into its name last, so that an archive that exists is whole.
func makeShare(ctx context.Context, dir, tool string, jars func() (reporter, warmup []byte, err error),
	dump func(ctx context.Context, tool string, s *jvmShare, archive string) error) *jvmShare {
	s := &jvmShare{dir: dir, archive: filepath.Join(dir, "classes.jsa")}
	if jars != nil {
		s.reporter, s.warmup = filepath.Join(dir, "reporter.jar"), filepath.Join(dir, "warmup.jar")
	}
	ready := func() bool {
		fi, err := os.Lstat(s.archive)
		return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
	}
	if ready() {
		return s
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil
	}
	defer lock.Close()
	unlock, err := lockFile(lock)
	if err != nil {
		return nil
	}
	defer unlock()
	if ready() {
		return s
	}
	// What an earlier attempt left is not trusted: start again.
	os.RemoveAll(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil
	}
	if jars != nil {
		var rj, wj []byte
		if rj, wj, err = jars(); err == nil {
			err = os.WriteFile(s.reporter, rj, 0o444)
		}
		if err == nil {
			err = os.WriteFile(s.warmup, wj, 0o444)
		}
	}
	partial := s.archive + ".tmp"
	if err == nil {
		err = dump(ctx, tool, s, partial)
	}
	if err == nil {
		err = os.Rename(partial, s.archive)
	}
	if err != nil || !ready() {
		os.RemoveAll(dir)
		return nil
	}
	return s
}

// runTrusted runs tool on the host, for code this package trusts, within
// two minutes.
func runTrusted(ctx context.Context, tool string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := osexec.CommandContext(ctx, tool, args...)
	cmd.Env = append(os.Environ(), jvmEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w\n%s", tool, err, tail(out, 2048))
	}
	return nil
}

func absPaths(ps []string) []string {
	var out []string
	for _, p := range ps {
		if filepath.IsAbs(p) {
			out = append(out, p)
		}
	}
	return out
}

// jar returns the reporter's classes as a jar, the same bytes every time.
func (rc reporterClasses) jar() ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(rc))
	for name := range rc {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return nil, err
		}
		if _, err := io.Copy(w, bytes.NewReader(rc[name])); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
