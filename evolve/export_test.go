package evolve

// Names the external tests reach; unexported in the package API.
var (
	StageAccepted = stageAccepted
	StageMade     = stageMade
	Calls         = testCalls
	Source        = source
)

type Call = testCall

// Names of the package the external tests reach.
var (
	ErrNoCall = errNoCall
	NewTester = newTester
)

type TesterConfig = testerConfig

const (
	StopInvalid    = stopInvalid
	VerdictInvalid = verdictInvalid
)
