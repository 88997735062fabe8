// Package measure computes GeneBench's program metrics for Python source:
// the seven complexity metrics C1–C7 of the paper's Table 1, the thirteen
// readability metrics R1–R13 of its Table 2 (plus the artifact's
// fourteenth, [Metrics.MaxIfConditions]), and the two objectives built
// on them, Relative Complexity (Eq. 1) and Relative Readability (Eq. 2).
// The GeneBench search (package evolve) calls [Measure] on every
// offspring; it is pure, deterministic and safe for concurrent use.
//
//	m, err := measure.Measure(src)            // errors.Is(err, measure.ErrSyntax) if src does not parse
//	t := measure.GeneBenchV1                   // or measure.Calibrate(referenceFiles)
//	rc, rr := t.RelativeComplexity(m), t.RelativeReadability(m)
//	violated, ok := t.Readable(m)              // paper: reject when some R_i >= RT_i
//
// # The metrics
//
// The counting rules are those of the public artifact's code
// (tool/metrics/my_metric.py and tool/readability.py in the anonymous
// ICSE'26 copy), restated on tree-sitter's Python tree. Every count is
// over the whole file. "threshold" is the default, [GeneBenchV1], the
// artifact's SWE-Bench means (complexity) and their ceilings
// (readability).
//
//	ID   name                     threshold rule
//	C1   cyclomatic complexity    66.29     E − N + 2P on a statement CFG, P = module + functions (see
//	                                        below)
//	C2   compound predicates      25.59     predicates containing a BoolOp, Compare, BinOp or UnaryOp
//	                                        anywhere: if/elif and while tests, each comprehension if, a
//	                                        lambda whose body is a Compare or BoolOp, each positional
//	                                        argument of any/all/range; conditional-expression tests are
//	                                        not predicates
//	C3   nesting levels           20.73     Σ (depth − 1) over if/for/while, depth counting the enclosing
//	                                        if/for/while and the node itself; an elif, and an if that is
//	                                        the first statement of an if's else block, is neither counted
//	                                        nor a level; functions do not reset the depth; async for is
//	                                        not a For
//	C4   complex code structures  30.44     2 × (lambdas + calls of an attribute named Thread + distinct
//	                                        directly recursive functions + decorators of def and class) +
//	                                        (list/set/dict comprehensions + generator expressions + list
//	                                        literals, targets included)
//	C5   third-party calls        18.11     calls to an imported name whose name or module is in the
//	                                        standard library or in Options.ThirdParty
//	C6   inter-class dependencies 19.86     calls to any other imported name (local modules such as
//	                                        newClassNN)
//	C7   intra-class dependencies 15.22     calls to a name a def of the file defines: f(), self.f(),
//	                                        f.x()
//	R1   tokens                   5038      NLTK word tokens of the file (see Tokens)
//	R2   lines of code            402       distinct start lines of ast nodes (statements, expressions,
//	                                        arguments, keywords, aliases, handlers, patterns)
//	R3   variables                45        distinct names bound in Store context (assignment, augmented
//	                                        and annotated targets, for and comprehension targets, with …
//	                                        as, :=)
//	R4   arrays                   13        list literals (targets included) + list comprehensions
//	R5   operators                78        BinOp, UnaryOp and BoolOp 1 each, one per comparison operator,
//	                                        augmented assignment 1
//	R6   conditions               45        if and elif + conditional expressions + comprehension ifs
//	R7   loops                    12        for + while + comprehension for clauses
//	R8   assignments              89        assignment statements (a = b = 1 is one), augmented, annotated
//	R9   max nested loops         2         deepest for/while nesting (comprehensions excluded)
//	R10  max nested ifs           4         deepest if nesting; each elif is one level below the previous
//	                                        test
//	R11  max tokens per line      31        most NLTK tokens on one line (lines split at '\n')
//	R12  nested casts             2         calls of int/float/str/bool/complex/bytes/list/tuple/set/dict
//	                                        with a call among their positional arguments
//	R13  entropy                  7         Shannon entropy (bits) of the token unigram distribution
//	R14  max conditions in an if  3         Metrics.MaxIfConditions (artifact only): most atomic
//	                                        conditions in an if/elif test: and/or sum their operands, not
//	                                        x counts as x, a comparison, name, call or constant counts 1,
//	                                        anything else 0
//
// The artifact's quirks are kept because they produced the published
// numbers: async functions are neither C7 targets nor recursion scopes nor
// decorated for C4 (the artifact's visitors only see FunctionDef); after a
// nested def the recursion check has no current function until the next
// def; `import os.path` binds the name "os.path", so os.path.join(…) is
// not a call of an imported name; self.x.f() is looked up as f. Two
// deliberate differences: a module is classified by its top-level package
// (the artifact tested the dotted name, so `import matplotlib.pyplot as
// plt; plt.plot()` was an inter-class call there and is third-party here),
// and names bound by `from . import x` count as local modules (C6) where
// the artifact crashed.
//
// # From Python's ast to tree-sitter
//
// tree-sitter's tree is concrete; each rule above is stated on Python's
// ast and mapped explicitly:
//
//   - if_statement is an If; each elif_clause is an If nested in the
//     previous test's orelse (one more level for R10, none for C3).
//   - decorated_definition wraps a function_definition or
//     class_definition; its decorator children are decorator_list.
//     function_definition with an async child is AsyncFunctionDef, and
//     for_statement with an async child is AsyncFor.
//   - A comprehension's if_clause children are its ifs (C2, R6); its
//     for_in_clause children its generators (R7).
//   - not_operator is UnaryOp(Not); unary_operator the other UnaryOps;
//     binary_operator a BinOp; comparison_operator a Compare with one op per
//     operators child ("not in" and "is not" are single children).
//   - boolean_operator is binary in tree-sitter: ((a and b) and c) is one
//     BoolOp in Python, so a left operand with the same operator continues
//     its parent's chain; a parenthesised operand stays separate, as in
//     Python.
//   - assignment is Assign, or AnnAssign when it has a type; a = b = 1 is
//     nested assignments in tree-sitter and one Assign in Python.
//     augmented_assignment is AugAssign.
//   - list and list_pattern are List (any context), except list patterns in
//     match cases (MatchSequence); a negative number in a pattern is an
//     anonymous "-" in tree-sitter and a UnaryOp in Python; complex_pattern
//     (1+2j) a BinOp.
//   - parenthesized_expression does not exist in Python's ast and is looked
//     through wherever a rule tests a node's kind.
//   - string and concatenated_string are one Constant or JoinedStr: only
//     their interpolations hold nodes (R2 counts one line per literal, R14
//     counts an f-string as 0).
//
// TestCrossCheck restates every rule on Python's own ast
// (testdata/astmetrics.py, run with Debian's /usr/bin/python3) and
// compares all 21 values on 164 HumanEval programs (prompt + canonical
// solution), ClassEval's 100 classes and 100 test files, GitChameleon's
// 328 solutions and the fixtures in testdata: agreement is 21/21 metrics
// on all 695 files.
//
// # C1: the control-flow graph
//
// One unit per module and per function body (lambdas are expressions);
// class bodies run inline. Nodes: an entry and an exit per unit, one per
// simple statement, one per compound-statement header (each if/elif test,
// each for/while header, each try, except, with and match header, each
// case; a def or class statement is a node of the enclosing unit). Edges:
// fall-through; test to branch and past the statement when there is no
// else; loop header to body, body end and continue back to the header,
// header to the loop's else or past it, break past the loop; return and
// raise to the unit's exit; try header to the body and to each handler,
// else after the body, finally after everything; match header to each
// case and past the statement unless the last case is `case _`.
// Short-circuit operators, conditional expressions, comprehensions and
// implicit exceptions add no edges.
//
// P is the number of units, each a connected component, so
// C1 = Σ over units of (decisions + 1): McCabe's number summed over the
// module and its functions. The artifact instead builds one graph for the
// whole file with a PyCFG clone (nodes for calls and function entries and
// exits, call edges dropped) and takes P as the number of its strongly
// connected components after removing isolated start/stop pairs; its C1
// values, and the GeneBenchV1 threshold 66.29, follow that other
// convention and are not comparable with ours. The graph is counted as it
// is built, not stored.
//
// # C5 and C6: the package lists
//
// The standard library is CPython 3.10's (sys.stdlib_module_names of
// 3.10), pinned in the package; what happens to be installed is never
// consulted. Third-party packages are those of [Options.ThirdParty]
// (compared without case), [DefaultThirdParty] when nil: cryptography,
// dateutil, numpy, scipy, sklearn, the packages GeneBench's operators
// inject.
//
// # Tokens
//
// R1, R11 and R13 use a Go port of nltk 3.8's NLTKWordTokenizer (the
// Treebank-style word tokenizer behind nltk.word_tokenize): its quote,
// punctuation, bracket, clitic and contraction rules in NLTK's order, each
// a byte scan with the semantics of NLTK's regular expression
// (TestTokenizeMatchesRegexes and FuzzTokenize hold the scans to the
// expressions; TestCrossCheck holds the counts to nltk itself on 695
// files). It differs from the artifact's word_tokenize in two ways:
//
//   - word_tokenize first splits text into sentences with the Punkt model,
//     whose data is not packaged; we tokenize the text as one sentence, as
//     word_tokenize(text, preserve_line=True) does. The difference: a
//     period ending a Punkt sentence inside the text ("Returns x. Then …"
//     in a docstring) stays attached to its word here, while word_tokenize
//     splits it off.
//   - Character classes are ASCII: Python's \w, \d and \s also match
//     non-ASCII letters, digits and spaces, so a quote next to a non-ASCII
//     letter may split differently.
//
// # Relative measures and thresholds
//
// [Thresholds.RelativeComplexity] and [Thresholds.RelativeReadability] are
// the paper's Eq. 1 and 2 (capped at 1, floored at 0, so both lie in
// [0, 1]); [Thresholds.RawComplexity] and [Thresholds.RawReadability] are
// the artifact's (uncapped, unfloored, RR over 14 keys, rounded to 4
// decimals). All skip metrics whose threshold is 0. [Thresholds.Readable]
// is the paper's validity rule; the artifact's is [Thresholds.FirstExceeded]
// (the first readability key over its threshold) with the operator ban map
// [ArtifactBans].
//
// Thresholds from the artifact only make sense with the artifact's metric
// code (C1 and the tokenizer differ here); [Calibrate] recomputes them as
// per-metric means over a reference corpus (the paper used SWE-Bench buggy
// files) with this package's code, and [Thresholds.Ceil] rounds the
// readability ones up as the artifact did. Over the 164 HumanEval
// programs, the means are C1 4.02, C2 1.55, C3 1.02, C4 0.83, C5 0.06,
// C6 0, C7 0.16, R1 155.10, R2 8.29, R11 24.11, R13 5.32; against
// GeneBenchV1, RC is 0.0302 and RR 0.8170 (the paper's Table 4: 0.04 and
// 0.77).
//
// # Speed
//
// BenchmarkMeasure measures the 164 HumanEval programs (about 500 bytes
// each) and reports, besides ns/op, the time per program, the time of
// parsing alone (syntax.ParseNodes: the tree-sitter parse and the copy of
// the tree into Go nodes that Measure starts with) and of the tokenizer
// alone, both run interleaved with Measure in every iteration, and
// x-parse, the ratio of Measure to parsing. On the 2-core test machine,
// shared with other jobs (load average 12–17), three runs of 30
// iterations gave 1.1–1.7 ms per program, 1.58–1.62 times parsing alone
// (0.7–1.1 ms); the tokenizer took 0.33–0.46 ms of it, the tree walk and
// the CFG the rest. Copying the tree out of tree-sitter (one cgo call per
// node) dominates. Next to the test run every offspring needs, this is
// small.
//
// # Stability
//
// The metric values follow the artifact's rules and change only to fix a
// divergence from them; the names and artifact keys in [ComplexityInfo]
// and [ReadabilityInfo] are stable. Error texts are not.
package measure
