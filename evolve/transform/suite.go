package transform

// All is GeneBench's 22 semantics-preserving transforms in the paper's
// order: S1..S12, A1..A8, N1, N2.
var All = []*Transform{
	addNestedFor, addNestedIf, addNestedWhile, addThread, addTryExcept, createFunction,
	createModuleDependencies, introduceDecorator, replaceNumpy, transformAugAssignment,
	transformLoopToRecursion, transformPrimToCompound,
	addBase64, addCrypto, addDatetime, addDateutil, addHttp, addScipy, addSklearn, addTime,
	renameVariable, renameFunction,
}

// Bugs is the five semantics-altering mutators GeneBench uses to inject
// bugs for program repair (M1..M5). Apply them to an original program and
// its evolved version together with [BugSites] and [InjectBug], so that
// both get the same bug.
var Bugs = []*Transform{
	changeArithmeticOperator, changeComparisonOperator, changeConditionOperator, changeReturn, changeType,
}
