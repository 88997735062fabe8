package adapteval

import "github.com/adaptbench/adaptbench/adapt"

// CountTokens exports countTokens (cl100k_base) to the tests.
var CountTokens = countTokens

// ReplaceInvalidUTF8 exports replaceInvalidUTF8 to the tests.
var ReplaceInvalidUTF8 = replaceInvalidUTF8

// Names the tests use and the package does not export.
type (
	Record       = record
	Adaptation   = adaptation
	Dependencies = dependencies
)

const (
	CompilationError = compilationError
	Generator        = generator
	InFileMarker     = inFileMarker
	ObfuscatedSuffix = obfuscatedSuffix
	TimeLimit        = timeLimit

	IssueDuplicateID     = issueDuplicateID
	IssueSkippedID       = issueSkippedID
	IssueUntested        = issueUntested
	IssueUnknownType     = issueUnknownType
	IssueNoAdaptations   = issueNoAdaptations
	IssueSnippetName     = issueSnippetName
	IssueDescription     = issueDescription
	IssueDuplicateTask   = issueDuplicateTask
	IssueMissingFile     = issueMissingFile
	IssueNoTarget        = issueNoTarget
	IssueAmbiguousTarget = issueAmbiguousTarget
	IssueNoTestClass     = issueNoTestClass
	IssueUnknownTest     = issueUnknownTest
	IssueCtxImport       = issueCtxImport
	IssueContextImport   = issueContextImport
	IssueOracle          = issueOracle
	IssueOracleSource    = issueOracleSource
)

var (
	AReqOracle = aReqOracle
	AReqNoCtx  = aReqNoCtx
	TReqOracle = tReqOracle
	TReqNoCtx  = tReqNoCtx
	NoReqCtx   = noReqCtx

	Categories      = categories
	Types           = adaptationTypes
	CategoryByLabel = categoryByLabel
	TypeByLabel     = typeByLabel

	Obfuscate      = obfuscate
	Deobfuscate    = deobfuscate
	ErrSyntax      = errSyntax
	ErrUnsupported = errUnsupported
	ErrFormat      = errFormat

	InFileContext = inFileContext
	Limits        = limits
	Oracle        = oracleContext
	ReadMetadata  = readMetadata
)

// Messages renders the setting's prompt of t.
func (s Setting) Messages(t *adapt.Task) ([]adapt.Message, error) { return s.messages(t) }

// Count returns the number of issues of a kind.
func (r *LoadReport) Count(kind string) int { return r.count(kind) }
