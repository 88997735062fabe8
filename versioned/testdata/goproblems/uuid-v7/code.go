package solution

import "github.com/google/uuid"

// NewOrderedID returns a new UUID that sorts by creation time: a version 7
// UUID, in its canonical string form.
func NewOrderedID() (string, error) {
	panic("not implemented")
}
