package transform

// Suite is GeneBench's 22 semantics-preserving transforms in the paper's
// order: S1..S12, A1..A8, N1, N2.
var Suite = []*Transform{}

// Bugs is the five semantics-altering mutators GeneBench uses to inject
// bugs for program repair (M1..M5).
var Bugs = []*Transform{}
