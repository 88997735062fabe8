package ctxbug

// Names the external tests reach; unexported in the package API.
var (
	ATP                 = meanTokenProb
	AdaptTasks          = adaptTasks
	All                 = cellAll
	Apply               = applyHoles
	Degradation         = degradation
	Deobfuscate         = deobfuscateCode
	InfillPrompt        = infillPrompt
	Obfuscate           = obfuscate
	ObfuscateAdaptation = obfuscateAdaptation
	ObfuscateTemplate   = obfuscateTemplate
	Perturb             = perturb
	Reasons             = reasons
	SetDetail           = setDetail
	Validate            = validateRules
)

// The paper's rules, one by one (ctxbug.Rules holds them in order).
var (
	ParamsRule    = paramsRule
	ReturnRule    = returnRule
	ConstantRule  = constantRule
	OperatorRule  = operatorRule
	OperationRule = operationRule
	ConditionRule = conditionRule
	CallRule      = callRule
	BoundedRule   = boundedRule
	FreeRule      = freeRule
	LibraryRule   = libraryRule
)

type (
	AdaptView = adaptView
	Template  = template
)

// JobForbidden is j's list of forbidden libraries.
func JobForbidden(j *Job) []string { return j.forbidden }

// Why identification dropped a candidate (unexported in the package API:
// the funnel counts them by their text forms).
type Reason = reason

const (
	ReasonInvalid     = reasonInvalid
	ReasonModel       = reasonModel
	ReasonReference   = reasonReference
	ReasonDeobfuscate = reasonDeobfuscate
	ReasonHarness     = reasonHarness
	ReasonTests       = reasonTests
	ReasonDiff        = reasonDiff
	ReasonLocality    = reasonLocality
	ReasonEmpty       = reasonEmpty
	ReasonDuplicate   = reasonDuplicate
	ReasonKept        = reasonKept
)

// Candidates is every candidate r's identification saw.
func Candidates(r *Result) []*Candidate { return r.candidates }

// Why is where identification stopped c, and what made it stop there.
func Why(c *Candidate) (Reason, string) { return c.reason, c.detail }

// StageGenerated is the funnel's first stage.
const StageGenerated = stageGenerated
