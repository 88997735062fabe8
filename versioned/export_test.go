package versioned

import (
	"io"

	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// The names the tests reach that are not part of the API.

type (
	Problem        = problem
	Flag           = flag
	Solution       = solution
	Attempt        = attempt
	PromptOptions  = promptOptions
	APIHitMode     = apiHitMode
	Breakdown      = grouping
	ChangeCategory = libapi.Category
)

const (
	APIHitSkip          = apiHitSkip
	APIHitStrict        = apiHitStrict
	APIHitPythonImports = apiHitPythonImports
	HiddenTestName      = hiddenTestName
	VisibleTestName     = visibleTestName
	GoBuilderName       = goBuilderName

	CategoryInvalid      = libapi.CategoryInvalid
	CategoryArgument     = libapi.CategoryArgument
	CategoryFunctionName = libapi.CategoryFunctionName
	CategorySemantics    = libapi.CategorySemantics
	CategoryNewFeature   = libapi.CategoryNewFeature
	CategoryOther        = libapi.CategoryOther
)

var (
	APIHit            = apiHit
	RepairMessages    = repairMessages
	Categorize        = libapi.Categorize
	CategorizeFig4    = libapi.CategorizeFig4
	GreedyTemplate    = greedyTemplate
	CoTTemplate       = cotTemplate
	FirstPythonBlock  = firstPythonBlock
	GoSum             = goSum
	ModulePath        = modulePath
	NewRate           = newRate
	PassRuleName      = passRuleName
	TopLevelTrace     = topLevelTrace
	HiddenTests       = hiddenTests
	VisibleTests      = visibleTests
	ReadSolutions     = readSolutions
	ReadSolutionsFile = readSolutionsFile
	SolutionModelOf   = solutionModelOf
	Read              = readProblems
	ReadFile          = readProblemsFile
	ReadDataset       = readDataset
	Tasks             = tasksOf
	ByLibrary         = byLibrary
	ByCategory        = byCategory
	ByRuntime         = byRuntime
	ByYear            = byYear
)

func (r *Scores) Breakdown(b Breakdown) []group { return r.groups(b) }

func (r *Scores) WriteBreakdownsOf(w io.Writer, bs ...Breakdown) error {
	return r.writeBreakdowns(w, bs...)
}

func (r *Scores) Rate(f func(*TaskResult) (pass, counted bool)) Rate { return r.validRate(f) }

func (p *problem) Category() ChangeCategory { return libapi.Categorize(p.ChangeType) }
