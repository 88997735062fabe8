package solution

import (
	"reflect"
	"testing"
)

func TestVisibleSortByAge(t *testing.T) {
	people := []Person{{"Cleo", 41}, {"Ada", 36}, {"Bo", 7}}
	SortByAge(people)
	want := []Person{{"Bo", 7}, {"Ada", 36}, {"Cleo", 41}}
	if !reflect.DeepEqual(people, want) {
		t.Fatalf("SortByAge = %v, want %v", people, want)
	}
}

func TestSortByAgeTies(t *testing.T) {
	people := []Person{{"Zed", 30}, {"Max", 30}, {"Ann", 30}, {"Kim", 2}}
	SortByAge(people)
	want := []Person{{"Kim", 2}, {"Ann", 30}, {"Max", 30}, {"Zed", 30}}
	if !reflect.DeepEqual(people, want) {
		t.Fatalf("SortByAge = %v, want %v", people, want)
	}
}

func TestSortByAgeEmpty(t *testing.T) {
	SortByAge(nil)
	one := []Person{{"Solo", 1}}
	SortByAge(one)
	if one[0] != (Person{"Solo", 1}) {
		t.Fatalf("SortByAge changed a one-element slice: %v", one)
	}
}
