package solution

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestVisibleNewOrderedID(t *testing.T) {
	s, err := NewOrderedID()
	if err != nil {
		t.Fatal(err)
	}
	id, err := uuid.Parse(s)
	if err != nil {
		t.Fatalf("NewOrderedID() = %q: %v", s, err)
	}
	if id.Version() != 7 || id.Variant() != uuid.RFC4122 {
		t.Fatalf("NewOrderedID() = %s: version %d, variant %v, want version 7, RFC 4122", s, id.Version(), id.Variant())
	}
}

func TestNewOrderedIDSorts(t *testing.T) {
	var prev string
	for i := 0; i < 5; i++ {
		s, err := NewOrderedID()
		if err != nil {
			t.Fatal(err)
		}
		if s <= prev {
			t.Fatalf("id %d %s does not sort after %s", i, s, prev)
		}
		prev = s
		time.Sleep(2 * time.Millisecond)
	}
	if len(prev) != 36 {
		t.Fatalf("NewOrderedID() = %q, want the 36-character canonical form", prev)
	}
}
