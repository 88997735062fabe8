// Package classeval loads the ClassEval benchmark (Du et al., ICSE'24: 100
// Python classes, 410 methods) as it is published in ClassEval_data.json,
// and turns its methods into adapt tasks.
//
// # Classes and methods
//
// [ReadFile] decodes the JSON into [Class] values: skeleton, full
// solution, imports, test module and per-method [Method] info (the
// method's reference, its test class, and the fields, sibling methods and
// libraries it depends on). It checks that each record has what the
// tasks need and names the record otherwise.
//
// # Tasks
//
// [Tasks] makes one task per method:
//
//	classes, err := classeval.ReadFile("ClassEval_data.json")
//	tasks, err := classeval.Tasks(classes, "ClassEval_data.json")
//	// tasks[0].ID == "ClassEval_0.filter"
//	// tasks[0].Target.Function == "AccessGatewayFilter.filter"
//	// tasks[0].Tests[0].Name == "test_solution.AccessGatewayFilterTestFilter.test_filter_1"
//
// [LoadFile], [Load] (a file of an fs.FS) and [LoadRevision] (a file at a
// revision of a git repository, through package source, with the
// repository and commit in every task's provenance) read and convert in
// one step.
//
// The workspace is solution.py (the whole class solution) and
// test_solution.py (the published tests after "from solution import *").
// The ctxbug package perturbs these references into CtxBug tasks.
//
// # Context of a method
//
// [Class.Siblings] and [Class.Callers] (from the method_dependencies
// annotations) name the methods around one; [Class.ImportedNames] are the
// names the class's imports bind ("np", "Document");
// [Class.SolutionWithout] takes methods out of the class (the context
// shown when a method and its callers are to be adapted).
//
// # Environment
//
// The solutions need these Debian packages: python3-numpy python3-pandas
// python3-docx python3-openpyxl python3-gensim python3-bs4 python3-pil
// python3-nltk python3-pypdf2 python3-reportlab. With them, every class's
// whole test module run against its solution in the sandbox (one minute
// of CPU per class), 406 of the 410 methods pass all their tests
// (TestAllSolutions; its time is in BENCHMARKS.md). The four others need
// what an offline sandbox cannot have: NLTK's punkt and tagger data (ClassEval_52 lemmatize_sentence and
// get_pos_tag), a host named LAPTOP-2CS86KUM (ClassEval_48 get_hostname)
// and a clock before 2024-01-02 (ClassEval_17 get_upcoming_events).
// Without the packages, the 42 methods of the classes that import one
// fail to import (366 pass).
//
// The label set and the requirement wording are not stable.
package classeval
