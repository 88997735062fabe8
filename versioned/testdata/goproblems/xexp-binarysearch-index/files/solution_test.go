package solution

import (
	"reflect"
	"testing"
)

func TestVisibleInsertSorted(t *testing.T) {
	got := InsertSorted([]int{1, 3, 5}, 4)
	if want := []int{1, 3, 4, 5}; !reflect.DeepEqual(got, want) {
		t.Fatalf("InsertSorted([1 3 5], 4) = %v, want %v", got, want)
	}
}

func TestInsertSortedEnds(t *testing.T) {
	for _, c := range []struct {
		s    []int
		v    int
		want []int
	}{
		{nil, 2, []int{2}},
		{[]int{5, 6}, 1, []int{1, 5, 6}},
		{[]int{5, 6}, 9, []int{5, 6, 9}},
		{[]int{2, 2, 2}, 2, []int{2, 2, 2, 2}},
	} {
		if got := InsertSorted(append([]int(nil), c.s...), c.v); !reflect.DeepEqual(got, c.want) {
			t.Errorf("InsertSorted(%v, %d) = %v, want %v", c.s, c.v, got, c.want)
		}
	}
}
