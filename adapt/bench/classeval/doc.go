// Package classeval loads the ClassEval benchmark (Du et al., ICSE'24: 100
// Python classes, 410 methods) as it is published in ClassEval_data.json,
// and turns its methods into adapt tasks.
//
// # Classes and methods
//
// [Load] and [LoadFile] decode the JSON into [Class] values: skeleton, full
// solution, imports, fields, test module and per-method [Method] info (the
// method's reference, its test class, and the fields, sibling methods and
// libraries it depends on). They check that each record has what the
// tasks need and name the record otherwise.
//
// # Tasks
//
// [Tasks] makes one task per method:
//
//	classes, err := classeval.LoadFile("ClassEval_data.json")
//	tasks, err := classeval.Tasks(classes, "ClassEval_data.json")
//	// tasks[0].ID == "ClassEval_0.filter"
//	// tasks[0].Target.Function == "AccessGatewayFilter.filter"
//	// tasks[0].Tests[0].Name == "test_solution.AccessGatewayFilterTestFilter.test_filter_1"
//
// The workspace is solution.py (the whole class solution) and
// test_solution.py (the published tests after "from solution import *").
// The ctxbug package perturbs these references into CtxBug tasks.
//
// The label set and the requirement wording are not stable.
package classeval
