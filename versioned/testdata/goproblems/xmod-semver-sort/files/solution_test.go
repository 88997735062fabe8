package solution

import (
	"reflect"
	"testing"
)

func TestVisibleSortVersions(t *testing.T) {
	vs := []string{"v1.10.0", "v1.2.0", "v1.9.1"}
	SortVersions(vs)
	if want := []string{"v1.2.0", "v1.9.1", "v1.10.0"}; !reflect.DeepEqual(vs, want) {
		t.Fatalf("SortVersions = %v, want %v", vs, want)
	}
}

func TestSortVersionsPrerelease(t *testing.T) {
	vs := []string{"v2.0.0", "v2.0.0-rc.1", "v0.9.0", "v2.0.0-alpha"}
	SortVersions(vs)
	if want := []string{"v0.9.0", "v2.0.0-alpha", "v2.0.0-rc.1", "v2.0.0"}; !reflect.DeepEqual(vs, want) {
		t.Fatalf("SortVersions = %v, want %v", vs, want)
	}
}
