package mutate

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

type source struct {
	name string
	lang Lang
	src  []byte
}

// sources returns the hand-written files of testdata/src (go/ and java/).
func sources(t testing.TB) []source {
	var out []source
	for _, l := range []Lang{Go, Java} {
		files, err := filepath.Glob(filepath.Join("testdata", "src", string(l), "*.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, source{string(l) + "/" + filepath.Base(p), l, b})
		}
	}
	if len(out) == 0 {
		t.Fatal("no sources in testdata/src")
	}
	return out
}

// ownSources returns the package's own Go files.
func ownSources(t testing.TB) []source {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []source
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, source{p, Go, b})
	}
	return out
}

func rngFor(seed, i uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, i)) }

func lineOf(src []byte, off int) (int, string) {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += off
	}
	return bytes.Count(src[:off], []byte("\n")) + 1, string(src[start:end])
}

func TestValidateSuite(t *testing.T) {
	if err := validateOps(Operators); err != nil {
		t.Fatal(err)
	}
}

func TestValidateRejects(t *testing.T) {
	tests := []struct {
		name   string
		op     *Operator
		reason string
	}{
		{"name", &Operator{Name: "bad name", Doc: "d", Tier: TierIdentifier, Langs: goJava, Sites: constSites, Run: replaceRun}, "names must be identifiers"},
		{"doc", &Operator{Name: "x", Tier: TierIdentifier, Langs: goJava, Sites: constSites, Run: replaceRun}, "Doc is required"},
		{"tier", &Operator{Name: "x", Doc: "d", Langs: goJava, Sites: constSites, Run: replaceRun}, "the zero Tier is invalid"},
		{"lang", &Operator{Name: "x", Doc: "d", Tier: TierIdentifier, Langs: []Lang{"cobol"}, Sites: constSites, Run: replaceRun}, "unsupported language"},
		{"run", &Operator{Name: "x", Doc: "d", Tier: TierIdentifier, Langs: goJava}, "Sites and Run are required"},
		{"nil", nil, "nil operator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if validateOps([]*Operator{tt.op}) == nil {
				t.Errorf("validateOps accepted an operator: %s", tt.reason)
			}
		})
	}
	if validateOps([]*Operator{renameVar, renameVar}) == nil {
		t.Error("validateOps accepted a duplicate name")
	}
}

func TestApplyRejects(t *testing.T) {
	src := []byte("abcdef")
	tests := []struct {
		name   string
		edits  []Edit
		reason string
	}{
		{"negative", []Edit{{-1, 2, nil}}, "start before 0"},
		{"past-end", []Edit{{2, 7, nil}}, "end past the source"},
		{"reversed", []Edit{{3, 2, nil}}, "end before start"},
		{"overlap", []Edit{{1, 3, nil}, {2, 4, nil}}, "ranges overlap"},
		{"same-insert", []Edit{{2, 2, []byte("x")}, {2, 2, []byte("y")}}, "two insertions at one offset have no order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Apply(src, tt.edits); err == nil {
				t.Errorf("Apply accepted edits: %s", tt.reason)
			}
		})
	}
	got, err := Apply(src, []Edit{{4, 6, []byte("X")}, {0, 0, []byte(">")}, {1, 3, nil}})
	if err != nil || string(got) != ">adX" {
		t.Errorf("Apply = %q, %v; want \">adX\"", got, err)
	}
	if string(src) != "abcdef" {
		t.Error("Apply modified its input")
	}
}

func TestFragments(t *testing.T) {
	for _, s := range sources(t) {
		fs, err := Fragments(s.lang, s.src)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, f := range fs {
			fmt.Fprintf(&b, "%s L%d-%d stmts=%d ids=%s\n", f.Kind, f.Line, f.EndLine, f.Stmts, strings.Join(f.Identifiers, ","))
			if f.Stmts < minStmts || f.Stmts > maxStmts || len(f.Identifiers) < 2 {
				t.Errorf("%s: fragment at L%d breaks the bounds", s.name, f.Line)
			}
		}
		golden(t, s.name+".fragments", b.String())
	}
	if _, err := Fragments("cobol", nil); err == nil {
		t.Error("Fragments accepted an unsupported language")
	}
}

// TestOperatorsGolden runs every operator at every site of the testdata
// files with a fixed seed and compares the changes with
// testdata/golden/<file>.<operator>.golden.
func TestOperatorsGolden(t *testing.T) {
	for _, s := range sources(t) {
		fs, err := Fragments(s.lang, s.src)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range Operators {
			if !op.supports(s.lang) {
				continue
			}
			t.Run(s.name+"/"+op.Name, func(t *testing.T) {
				var b strings.Builder
				n := 0
				for _, f := range fs {
					for i, site := range op.Sites(&f) {
						m, err := Mutate(op, site, rngFor(1, uint64(i)))
						if err != nil {
							t.Fatal(err)
						}
						n++
						fmt.Fprintf(&b, "-- %s L%d site %d: %s %v: %s --\n", f.Kind, f.Line, i, m.Record.NodeKind, m.Record.NodePath, m.Fate)
						for _, c := range m.Record.Changes {
							ln, text := lineOf(m.Src, c.Mut.Start)
							fmt.Fprintf(&b, "L%d %q -> %q\n\t%s\n", ln, c.Old, c.New, strings.TrimSpace(text))
						}
					}
				}
				if n == 0 {
					fmt.Fprintf(&b, "no sites\n")
				}
				golden(t, s.name+"."+op.Name, b.String())
			})
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", strings.ReplaceAll(name, "/", "_")+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	assert.Equal(t, string(want), got, "%s mismatch", path)
}

// TestRoundTrip is the property test: for every fragment of the testdata
// files and of this package's own sources, every operator, site and seed,
// the mutant is deterministic, its edits stay inside the fragment's block,
// Revert gives F back byte for byte, and the syntax errors Mutate found
// with an incremental parse are those of a full parse (every 32nd
// mutant).
func TestRoundTrip(t *testing.T) {
	t.Parallel() // minutes: beside the other slow tests of the package
	var funnel report.Funnel
	mutants := 0
	for _, s := range append(sources(t), ownSources(t)...) {
		seeds := uint64(3)
		if s.name != "" && !strings.HasSuffix(s.name, ".txt") {
			seeds = 1 // the package's own sources are large; one seed each
		}
		fs, err := Fragments(s.lang, s.src)
		if err != nil {
			t.Fatal(err)
		}
		for fi := range fs {
			f := &fs[fi]
			for _, op := range Operators {
				if !op.supports(s.lang) {
					continue
				}
				for i, site := range op.Sites(f) {
					for seed := uint64(0); seed < seeds; seed++ {
						m, err := Mutate(op, site, rngFor(seed, uint64(i)))
						if err != nil {
							t.Fatal(err)
						}
						CountMutant(&funnel, m)
						if m.Fate == FateBadEdit {
							t.Errorf("%s L%d %s: bad edits: %v", s.name, f.Line, op.Name, m.Err)
						}
						if m.Src == nil {
							continue
						}
						mutants++
						if mutants%32 == 0 { // Mutate reparses incrementally: as from scratch
							full, err := syntax.Parse(syntax.Lang(s.lang), m.Src)
							if err != nil {
								t.Fatal(err)
							}
							assert.Empty(t, cmp.Diff(syntaxErrors(full.Errors()), m.syntaxErrs, cmpopts.EquateEmpty()), "%s L%d %s: syntax errors differ from a full parse (-full +Mutate)", s.name, f.Line, op.Name)
						}
						if !cmp.Equal(op.Run(site, rngFor(seed, uint64(i))), op.Run(site, rngFor(seed, uint64(i)))) {
							t.Errorf("%s L%d %s: not deterministic", s.name, f.Line, op.Name)
						}
						for _, c := range m.Record.Changes {
							if c.Orig.Start < f.block.Start || c.Orig.End > f.block.End {
								t.Errorf("%s L%d %s: change %v outside the block", s.name, f.Line, op.Name, c.Orig)
							}
						}
						back, err := Revert(m.Src, []Record{m.Record})
						if err != nil {
							t.Fatalf("%s L%d %s: %v", s.name, f.Line, op.Name, err)
						}
						if !bytes.Equal(back, s.src) {
							t.Errorf("%s L%d %s: Revert did not restore F", s.name, f.Line, op.Name)
						}
					}
				}
			}
		}
	}
	if mutants < 100 {
		t.Errorf("only %d mutants; the property test needs more", mutants)
	}
	t.Logf("%d mutants\n%s", mutants, funnelTable(&funnel))
}

func TestMutateSyntaxReject(t *testing.T) {
	bad := &Operator{Name: "breaker", Doc: "d", Tier: TierStructural, Langs: goJava,
		Sites: logicSites,
		Run: func(s Site, _ *rand.Rand) []Edit {
			return []Edit{{s.node.Start, s.node.Start, []byte("(((")}}
		}}
	src := []byte("package p\n\nfunc f(a, b int) int {\n\tx := a + b\n\ty := x - a\n\treturn x * y\n}\n")
	fs, err := Fragments(Go, src)
	if err != nil || len(fs) != 1 {
		t.Fatalf("Fragments = %d, %v", len(fs), err)
	}
	var funnel report.Funnel
	for _, site := range bad.Sites(&fs[0]) {
		m, err := Mutate(bad, site, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Fate != FateSyntax || len(m.syntaxErrs) == 0 {
			t.Errorf("Fate = %v with %d errors, want syntax", m.Fate, len(m.syntaxErrs))
		}
		CountMutant(&funnel, m)
	}
	if funnel.Count("breaker", StageApplied) != 2 || funnel.Count("breaker", StageParsed) != 0 {
		t.Errorf("funnel:\n%s", funnelTable(&funnel))
	}
}

func TestEnumText(t *testing.T) {
	for s := FateOK; s <= FateSyntax; s++ {
		b, err := s.MarshalText()
		var back Fate
		if err != nil || back.UnmarshalText(b) != nil || back != s {
			t.Errorf("Fate %v does not round-trip", s)
		}
	}
	for tr := TierIdentifier; tr <= TierStructural; tr++ {
		b, err := tr.MarshalText()
		var back Tier
		if err != nil || back.UnmarshalText(b) != nil || back != tr {
			t.Errorf("Tier %v does not round-trip", tr)
		}
	}
	if _, err := fateInvalid.MarshalText(); err == nil {
		t.Error("fateInvalid marshalled")
	}
	var tr Tier
	if tr.UnmarshalText(nil) == nil {
		t.Error(`Tier accepted ""`)
	}
}

// TestCompose combines one site of each of several operators in every
// fragment (like the paper's levels L2 to L4) and checks that Revert with
// all records restores F, and that each record alone reverts its own
// changes.
func TestCompose(t *testing.T) {
	composed, conflicts := 0, 0
	for _, s := range sources(t) {
		fs, err := Fragments(s.lang, s.src)
		if err != nil {
			t.Fatal(err)
		}
		for fi := range fs {
			f := &fs[fi]
			var picks []sitePick
			for _, op := range Operators {
				if !op.supports(s.lang) {
					continue
				}
				if sites := op.Sites(f); len(sites) > 0 {
					picks = append(picks, sitePick{op, sites[len(sites)/2]})
				}
			}
			for level := 2; level <= 4 && level <= len(picks); level++ {
				c, err := compose(picks[:level], rngFor(9, uint64(level)))
				if err != nil {
					t.Fatal(err)
				}
				if c.Fate == FateBadEdit {
					conflicts++
					continue
				}
				if c.Src == nil {
					continue
				}
				composed++
				back, err := Revert(c.Src, c.Records)
				if err != nil || !bytes.Equal(back, s.src) {
					t.Errorf("%s L%d level %d: Revert = %v, restored %t", s.name, f.Line, level, err, bytes.Equal(back, s.src))
				}
			}
		}
	}
	if composed == 0 {
		t.Error("no composed mutants")
	}
	t.Logf("%d composed mutants, %d conflicts", composed, conflicts)
	if _, err := compose(nil, nil); err == nil {
		t.Error("Compose accepted no picks")
	}
}

func funnelTable(f *report.Funnel) string {
	var b strings.Builder
	f.WriteTable(&b)
	return b.String()
}

// BenchmarkReparse measures Mutate on the package's own sources (files of
// hundreds of lines, where a mutant changes a few bytes; every fourth
// fragment, one site per operator) with the incremental syntax check it
// uses and with a parse of the whole mutant from scratch, the baseline,
// interleaved in the same run: "x-full" is the baseline's time over the
// incremental one's.
func BenchmarkReparse(b *testing.B) {
	type pick struct {
		op   *Operator
		site Site
	}
	var picks []pick
	for _, s := range ownSources(b) {
		fs, err := Fragments(s.lang, s.src)
		if err != nil {
			b.Fatal(err)
		}
		for fi := 0; fi < len(fs); fi += 4 {
			for _, op := range Operators {
				if sites := op.Sites(&fs[fi]); op.supports(s.lang) && len(sites) > 0 {
					picks = append(picks, pick{op, sites[0]})
				}
			}
		}
	}
	var incr, full time.Duration
	for b.Loop() {
		for _, p := range picks {
			for _, fromScratch := range []bool{false, true} {
				site := p.site
				if fromScratch {
					frag := *site.Frag
					frag.file = nil
					site.Frag = &frag
				}
				start := time.Now()
				if _, err := Mutate(p.op, site, rngFor(1, 0)); err != nil {
					b.Fatal(err)
				}
				if fromScratch {
					full += time.Since(start)
				} else {
					incr += time.Since(start)
				}
			}
		}
	}
	b.ReportMetric(float64(len(picks)), "mutants/op")
	b.ReportMetric(float64(full)/float64(incr), "x-full")
}
