package versioned

import (
	"io"

	"github.com/adaptbench/adaptbench/versioned/internal/category"
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
	ChangeCategory = category.Category
)

const (
	APIHitSkip          = apiHitSkip
	APIHitStrict        = apiHitStrict
	APIHitPythonImports = apiHitPythonImports
	HiddenTestName      = hiddenTestName
	VisibleTestName     = visibleTestName
	GoBuilderName       = goBuilderName

	CategoryInvalid      = category.Invalid
	CategoryArgument     = category.Argument
	CategoryFunctionName = category.FunctionName
	CategorySemantics    = category.Semantics
	CategoryNewFeature   = category.NewFeature
	CategoryOther        = category.Other
)

var (
	APIHit            = apiHit
	RepairMessages    = repairMessages
	Categorize        = category.Of
	CategorizeFig4    = category.Fig4
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

func (p *problem) Category() ChangeCategory { return category.Of(p.ChangeType) }
