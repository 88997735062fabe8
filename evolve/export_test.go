package evolve

// Names the external tests reach; unexported in the package API.
var (
	StageAccepted = stageAccepted
	StageMade     = stageMade
	Calls         = testCalls
	Source        = source
)

type Call = testCall
