package mutate

// Names the external tests use that are not part of the API.
var (
	CountMutant  = countMutant
	SummaryGroup = summaryGroup
	SpliceAnswer = spliceAnswer
)
