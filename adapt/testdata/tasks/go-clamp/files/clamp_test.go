package clamp

import "testing"

func TestClampExported(t *testing.T) {
	if Clamp(5, 0, 10) != 5 {
		t.Fatal("Clamp(5, 0, 10) != 5")
	}
}

func TestClampInt64(t *testing.T) {
	var big int64 = 1 << 40
	if got := Clamp(big, 0, big+1); got != big {
		t.Fatalf("Clamp(2^40) = %d", got)
	}
}

func TestClampRange(t *testing.T) {
	if Clamp(-3, 0, 10) != 0 || Clamp(30, 0, 10) != 10 {
		t.Fatal("Clamp does not limit")
	}
}
