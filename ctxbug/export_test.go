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
