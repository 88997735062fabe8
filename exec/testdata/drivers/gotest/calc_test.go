package fixture

import (
	"fmt"
	"testing"
)

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 2 {
		t.Errorf("Sub(5, 3) = %d, want 2", got)
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("not today")
}

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a, want int
	}{{"one", 1, 2}, {"two", 2, 5}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Add(tc.a, tc.a); got != tc.want {
				t.Fatalf("Add(%d, %d) = %d, want %d", tc.a, tc.a, got, tc.want)
			}
		})
	}
}

func ExampleAdd() {
	fmt.Println(Add(1, 2))
	// Output: 3
}

// TestPanics errors: Div panics. The test binary ends with it, so the
// tests after it in this file do not run.
func TestPanics(t *testing.T) {
	Div(1, 0)
}

func TestAfterPanic(t *testing.T) {}
