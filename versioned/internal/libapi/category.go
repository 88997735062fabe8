package libapi

import (
	"fmt"
	"regexp"
	"strings"
)

// Category is a normalised kind of API change, from a problem's
// free-text type_of_change label.
type Category uint8

// Change categories. The zero value is invalid: a category never set.
const (
	CategoryInvalid Category = iota
	CategoryArgument
	CategoryFunctionName
	CategorySemantics
	CategoryNewFeature
	CategoryOther
)

var categoryNames = [...]string{"invalid", "argument", "function-name", "semantics", "new-feature", "other"}

func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("ChangeCategory(%d)", uint8(c))
}

// MarshalText implements encoding.TextMarshaler.
func (c Category) MarshalText() ([]byte, error) {
	if c == CategoryInvalid || int(c) >= len(categoryNames) {
		return nil, fmt.Errorf("versioned: invalid change category %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Category) UnmarshalText(b []byte) error {
	for i, n := range categoryNames[1:] {
		if string(b) == n {
			*c = Category(i + 1)
			return nil
		}
	}
	return fmt.Errorf("versioned: unknown change category %q", b)
}

// Categorize maps a raw type_of_change label to a category. Rules are
// tried in order on the lower-cased label, first match wins:
//
//	contains "name change"                            → function-name
//	contains "argument", "attribute" or "param"       → argument
//	contains "new", "feature" or "dependency"         → new-feature
//	contains "semantic", "behavio", "breaking",
//	  "deprecat", "output" or "ouput"                 → semantics
//	anything else                                     → other
//
// On the published labels this gives argument 107, new-feature 99,
// function-name 58, semantics 56, other 8. It fixes two bugs of the
// authors' Fig. 4(b) mapping (see CategorizeFig4): "new func/method/class"
// is a new feature, not a rename, and "deprecation" is semantics.
func Categorize(label string) Category {
	l := strings.ToLower(label)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(l, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("name change"):
		return CategoryFunctionName
	case has("argument", "attribute", "param"):
		return CategoryArgument
	case has("new", "feature", "dependency"):
		return CategoryNewFeature
	case has("semantic", "behavio", "breaking", "deprecat", "output", "ouput"):
		return CategorySemantics
	}
	return CategoryOther
}

var fig4Rules = []struct {
	re  *regexp.Regexp
	cat Category
}{
	{regexp.MustCompile(`(?i)\b(argument|attribute|param)\b`), CategoryArgument},
	{regexp.MustCompile(`(?i)\b(name change|rename|function|method|class)\b`), CategoryFunctionName},
	{regexp.MustCompile(`(?i)\b(semantic|behaviour|behavior|breaking|deprecate)\b`), CategorySemantics},
	{regexp.MustCompile(`(?i)\b(new|feature|dependency)\b`), CategoryNewFeature},
}

// CategorizeFig4 reproduces the authors' mapping behind the paper's
// Fig. 4(b) (legacy src/figures/dataset_statis.py), bugs included: on the
// published labels it gives argument 108, function-name 106, new-feature
// 53, semantics 34, other 27.
func CategorizeFig4(label string) Category {
	for _, r := range fig4Rules {
		if r.re.MatchString(label) {
			return r.cat
		}
	}
	return CategoryOther
}
