package fixture

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != Mul(1, 5) {
		t.Fail()
	}
}
