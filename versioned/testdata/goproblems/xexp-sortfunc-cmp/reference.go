package solution

import (
	"cmp"

	"golang.org/x/exp/slices"
)

// Person is a name and an age.
type Person struct {
	Name string
	Age  int
}

// SortByAge sorts people in place by age, youngest first, and people of
// the same age by name.
func SortByAge(people []Person) {
	slices.SortFunc(people, func(a, b Person) int {
		if c := cmp.Compare(a.Age, b.Age); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}
