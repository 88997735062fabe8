package solution

import "testing"

func TestVisibleHighest(t *testing.T) {
	if got := Highest([]int{3, 9, 4}); got != 9 {
		t.Fatalf("Highest([3 9 4]) = %d, want 9", got)
	}
}

func TestHighestNegative(t *testing.T) {
	if got := Highest([]int{-7, -2, -11}); got != -2 {
		t.Fatalf("Highest([-7 -2 -11]) = %d, want -2", got)
	}
	if got := Highest([]int{5}); got != 5 {
		t.Fatalf("Highest([5]) = %d, want 5", got)
	}
}

func TestHighestEmptyPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Highest(nil) did not panic")
		}
	}()
	Highest(nil)
}
