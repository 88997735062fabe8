package adapteval

import "strings"

// category is one of AdaptEval's three adaptation categories.
type category struct {
	// Label is the category as the data writes it, the part of a type
	// label before the dot: "Method_Signature", "Logic" or "Refactoring".
	Label string
	// Abbrev is the paper's abbreviation: MS, LC or RE.
	Abbrev string
	// Name is the paper's name for it.
	Name string
	// Count is the number of adaptations of the category in the benchmark.
	Count int
}

// categories lists the three categories in the order of the paper's tables.
var categories = []category{
	{Label: "Method_Signature", Abbrev: "MS", Name: "Method Signature", Count: 128},
	{Label: "Logic", Abbrev: "LC", Name: "Logic Customization", Count: 227},
	{Label: "Refactoring", Abbrev: "RE", Name: "Refactoring", Count: 168},
}

// adaptationType is one of AdaptEval's 38 adaptation types.
type adaptationType struct {
	// Label is the type as the data writes it, "<Category>.<Code>", such
	// as "Logic.Ins_Call".
	Label string
	// Abbrev is the abbreviation the paper's Table V prints ("Ins_Call",
	// "Rnm_Func", "Renam_EVar"); it differs from the code in the label for
	// some types.
	Abbrev string
	// Name is the paper's name for it ("Insert Call").
	Name string
	// Count is the number of adaptations of the type in the benchmark, as
	// in metadata.json and Table V.
	Count int
}

// Category returns the category part of the label.
func (t adaptationType) Category() string {
	c, _, _ := strings.Cut(t.Label, ".")
	return c
}

// adaptationTypes lists the 38 types in the row order of the paper's Table V, with
// the counts of the published data. (Table II of the paper swaps the counts
// of Upd_Ann and Del_Ann; Table V and the data agree.)
var adaptationTypes = []adaptationType{
	{"Method_Signature.Encap", "Encap", "Encapsulate", 13},
	{"Method_Signature.Rename_Func", "Rnm_Func", "Rename Function", 70},
	{"Method_Signature.Upd_Type", "Upd_Type", "Update Function Type", 11},
	{"Method_Signature.Ins_Param", "Ins_Param", "Insert Parameter", 13},
	{"Method_Signature.Del_Param", "Del_Param", "Delete Parameter", 5},
	{"Method_Signature.Upd_Param", "Upd_Param", "Update Parameter", 16},
	{"Logic.Init_Var", "Init_Var", "Initialize Variable", 3},
	{"Logic.Replace_Var", "Repl_Var", "Replace Variable", 11},
	{"Logic.Upd_Const", "Upd_Const", "Update Constant", 13},
	{"Logic.Conv_Type", "Conv_Type", "Convert Object Type", 23},
	{"Logic.Ins_Call", "Ins_Call", "Insert Call", 22},
	{"Logic.Del_Call", "Del_Call", "Delete Call", 8},
	{"Logic.Upd_Call", "Upd_Call", "Update Call", 52},
	{"Logic.Ins_Import", "Ins_Import", "Insert Import", 16},
	{"Logic.Ins_Return", "Ins_Return", "Insert Return", 5},
	{"Logic.Del_Return", "Del_Return", "Delete Return", 1},
	{"Logic.Upd_Return", "Upd_Return", "Update Return", 8},
	{"Logic.Ins_Cond", "Ins_Cond", "Insert Condition", 31},
	{"Logic.Del_Cond", "Del_Cond", "Delete Condition", 13},
	{"Logic.Upd_Cond", "Upd_Cond", "Update Condition", 9},
	{"Logic.Handle_Ex", "Handle_Ex", "Handle Exception", 11},
	{"Logic.Ins_Func", "Ins_Fun", "Insert Function", 1},
	{"Refactoring.Ins_Ann", "Ins_Ann", "Insert Type Annotation", 52},
	{"Refactoring.Upd_Ann", "Upd_Ann", "Update Type Annotation", 3},
	{"Refactoring.Del_Ann", "Del_Ann", "Delete Type Annotation", 1},
	{"Refactoring.Ins_Tmp_Var", "Ins_Tmp_Var", "Insert Temporary Variable", 9},
	{"Refactoring.Del_Tmp_Var", "Del_Tmp_Var", "Delete Temporary Variable", 3},
	{"Refactoring.Rename_Param", "Rename_Param", "Rename Parameter", 24},
	{"Refactoring.Rename_Var", "Renam_EVar", "Rename Variable", 20},
	{"Refactoring.Upd_Api_Ref", "Upd_Api_Ref", "Update API Referenced Name", 25},
	{"Refactoring.Ins_Return_None", "Ins_Ref_Non", "Insert None Return", 2},
	{"Refactoring.Refactor_Expr", "Refact_Expr", "Refactor Expression", 17},
	{"Refactoring.Mov_Expr", "Mov_Expr", "Move Expression", 1},
	{"Refactoring.Del_Import", "Del_Import", "Delete Import", 3},
	{"Refactoring.Split_Line", "Split_Line", "Split Lines", 2},
	{"Refactoring.Inline_Func", "Inline_Fun", "Inline Function", 1},
	{"Refactoring.Expand_Func", "Expl_Fun", "Expand Function", 3},
	{"Refactoring.Mov_Func", "Mov_Func", "Move Function", 2},
}

// typeAliases maps other spellings found in the paper to data labels.
var typeAliases = map[string]string{
	"Refactoring.Ins_Ret_None": "Refactoring.Ins_Return_None",
	"Refactoring.Ins_Ref_Non":  "Refactoring.Ins_Return_None",
}

// typeByLabel returns the type with the given data label ("Logic.Ins_Call"),
// also accepting the paper's spellings of Insert None Return
// ("Refactoring.Ins_Ret_None", "Refactoring.Ins_Ref_Non").
func typeByLabel(label string) (adaptationType, bool) {
	if a, ok := typeAliases[label]; ok {
		label = a
	}
	for _, t := range adaptationTypes {
		if t.Label == label {
			return t, true
		}
	}
	return adaptationType{}, false
}

// categoryByLabel returns the category with the given label
// ("Method_Signature") or abbreviation ("MS").
func categoryByLabel(label string) (category, bool) {
	for _, c := range categories {
		if c.Label == label || c.Abbrev == label {
			return c, true
		}
	}
	return category{}, false
}
