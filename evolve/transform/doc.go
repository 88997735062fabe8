// Package transform implements GeneBench's 22 semantics-preserving program
// transformations for Python (structural S1–S12, API injection A1–A8,
// renaming N1–N2) and its five semantics-altering bug mutators (M1–M5), as
// byte-range edits of the source over tree-sitter (internal/syntax). The
// GeneBench search (package evolve) applies them; see
// spec/genebench.md §3 for the operators as the paper and its artifact
// define them.
//
// # Programs, sites and transforms
//
// A [Program] is the module under test (Main), the modules transforms
// created (Modules: S7 writes newClass<N>.py) and the names that must keep
// their meaning (Protected: the entry point and every name the tests
// call). [Program.Hash] identifies its content for caches and
// deduplication.
//
// A [Transform] is a descriptor (style rule A1): an ID ("S1"), the paper's
// Name, a Doc that says exactly what it rewrites and what remains
// conditional, a [Family], and two functions. Sites lists where it applies,
// in document order, as [Site] values whose Key is the node's path in the
// tree ("3:function_definition/4:block/2:for_statement"), so a search can
// remember which sites it already used; Apply rewrites one site and returns
// a new Program (the input is never modified), drawing every random choice
// from the *rand.Rand it is given. [All] holds the 22 in the paper's
// order and [Bugs] the five mutators; callers filter or append to them and
// check the result with [Validate]. [Random] is the usual entry point:
//
//	q, site, err := transform.Random(p, transform.All[0], rng) // S1, AddNestedFor
//	switch {
//	case errors.Is(err, transform.ErrNoSite): // not applicable to p
//	case errors.Is(err, transform.ErrSyntax): // cannot happen for a p that parses
//	}
//
// # Editing without an unparser
//
// Tree-sitter cannot print a tree, so every operator is a list of byte
// splices of the original text: comments, quotes and formatting outside
// the edited ranges are kept byte for byte. Wrapping a statement in a new
// block indents each of its lines by the file's indentation unit (a tab if
// the first indented line starts with one, else four spaces), except the
// continuation lines of multi-line string literals, whose value must not
// change; S11 moves a loop body to a new depth the same way. Statements
// are only wrapped, moved or preceded by new lines when they sit on lines
// of their own (not "if x: return y", not after a semicolon). New names
// (LoopChecker1<L>, newFunc<k>_<L>, new<name>_<k>, ...) follow GeneBench's
// patterns and get a suffix when the program already uses the name; new
// imports go after the module docstring and __future__ imports. Where an
// edit would glue two identifier characters ("if(x)" negated), a space is
// added. After Apply, [Random] and [Check] re-parse Main and every module
// and report error or missing nodes as [ErrSyntax].
//
// # Scopes
//
// N1, N2, S4, S6, S7 and S11 rely on a Python scope analysis of the whole
// module (internal/syntax's, checked against CPython's symtable): module,
// function, lambda, class and comprehension scopes; LEGB lookup with class
// scopes invisible to nested functions; a comprehension's first iterable
// evaluated in the enclosing scope; walrus targets binding outside
// comprehensions; global and nonlocal; parameters, imports,
// with/except/for targets, match captures and del. Attributes and
// keyword-argument names are never names. A scope that calls locals, vars,
// eval, exec, globals or dir, star-imports or uses match is treated as
// reading names dynamically, and nothing it can see is renamed.
//
// # Bugs at shared statements
//
// GeneBench injects the same bugs into a program and into its evolved
// version, for program repair, choosing locations among the statements
// both share: the two trees are matched with internal/syntax's GumTree
// matcher, and the simple statements, if, elif and while conditions and
// for iterables whose text is unchanged are the candidates.
// [BugSites] keeps a mutator's sites that lie in one of them and pairs each
// with its counterpart in the original; [InjectBug] applies the mutator to
// both with the same random draws and checks that both got the same
// change. The mutators are [Bugs], M1 to M5 in order.
//
// # The operators
//
// Every operator fires at any of its sites (GeneBench's artifact rewrites
// the first site only); "safe" below is how this version removes a hazard
// of the artifact's, and the Doc of each operator says the rest.
//
//	ID   Name                      What                                          Conditional (what remains)
//	S1   AddNestedFor              wrap a for in a one-pass outer for            a in [3,1000] (artifact a=2 runs twice); new names in scope
//	S2   AddNestedIf               wrap an if in "if C1 & C2:"                   safe: a & b != 0 (artifact can disable the if); new names
//	S3   AddNestedWhile            wrap a while in a one-pass outer while        a in [3,1000] (artifact a=2 never runs); new names
//	S4   AddThread                 run "t = f(args)" in a thread via a queue     safe: exceptions re-raised (artifact blocks); thread-locals, stack
//	S5   AddTryExcept              wrap a function body in try/except            safe: "except: raise" (artifact swallows); tracebacks
//	S6   CreateFunction            move a binary operation into newFunc<k>_<L>   no hoisting (artifact reorders); free locals read eagerly
//	S7   CreateModuleDependencies  move an S6 function to newClass<N>.py         the module must be importable beside the program
//	S8   IntroduceDecorator        add my_decorator and decorate a def           innermost, under staticmethod etc.; __name__, signature
//	S9   ReplaceNumpy              max/min/sum/sorted/reversed/abs via numpy     object arrays keep Python values; numpy needed, messages differ
//	S10  TransformAugAssignment    "x op= n" to "x = x op n"                     numbers only (artifact: aliasing of lists, sets); numpy arrays
//	S11  TransformLoopToRecursion  "for v in range(...)" to a recursive helper   range checks kept; RecursionError past ~1000 iterations
//	S12  TransformPrimToCompound   "x = v" to "x = [v][0]"                       preserving
//	A1   AddBase64                 base64.b64encode(b'<20 digits>')              preserving
//	A2   AddCrypto                 Fernet.generate_key()                         cryptography installed
//	A3   AddDatetime               datetime.datetime.now()                       preserving
//	A4   AddDateutil               parse('<random date>')                        python-dateutil installed
//	A5   AddHttp                   HTTPConnection('google.com', port=80)         preserving (never connects)
//	A6   AddScipy                  ttest_ind([3 ints], [3 ints])                 scipy installed; safe: samples never constant (no warning)
//	A7   AddSklearn                shuffle([3 ints])                             scikit-learn installed; draws from numpy's global RNG
//	A8   AddTime                   time.sleep(0..0.3 s)                          latency against time limits
//	N1   RenameVariable            a function's local to new<name>_<k>           scope-aware; never parameters, imports, protected, builtins
//	N2   RenameFunction            a non-method function to Func_<name>_<k>      all references; __name__ and lookups by string change
//	M1   ChangeArithmeticOperator  + - * / to another of them                    bug
//	M2   ChangeComparisonOperator  < <= > >= == != to another of them            bug
//	M3   ChangeConditionOperator   and<->or, drop not, negate a condition        bug
//	M4   ChangeReturn              return c -> -c + 10, x -> not x, e -> not (e) bug
//	M5   ChangeType                number -> str or bool, string -> 4 digits     bug
//
// The API operators A1–A8 insert their call before a statement of a
// function body (after the docstring), or of the module when it has no
// function, and apply only while the name they import is unused, so at
// most once per program.
//
// # Measured
//
// Every operator's output parses and compiles on HumanEval's 164
// programs, and preserves their tests' verdicts (TestHumanEvalParses,
// TestHumanEvalPreserves; figures in BENCHMARKS.md).
//
// # Stability
//
// The IDs, names, families, the name patterns of new identifiers and the
// Site keys are stable. The exact text an operator writes (blank lines,
// the order of added imports) may change between versions; the golden
// files in testdata/ pin the current one.
package transform
