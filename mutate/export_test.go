package mutate

// Names the external tests use that are not part of the API.
var (
	CountMutant  = countMutant
	SummaryGroup = summaryGroup
	SpliceAnswer = spliceAnswer
)

// The optional interfaces of a Project that Generate looks for, for
// buildsys_test.go to hold the build systems to them.
type (
	Preparer      = preparer
	TypeChecker   = typeChecker
	BatchChecker  = batchChecker
	BatchCoverage = batchCoverage
)
