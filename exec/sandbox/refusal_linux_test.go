package sandbox

import (
	"errors"
	"strings"
	"testing"
)

func TestRefusalExplains(t *testing.T) {
	err := explainNamespaces(errors.New("fork/exec /proc/self/exe: operation not permitted"))
	if !errors.Is(err, ErrNoNamespaces) {
		t.Fatalf("%v does not wrap ErrNoNamespaces", err)
	}
	for _, want := range []string{"operation not permitted", "NewUnsandboxed", "namespaces"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not mention %q", err, want)
		}
	}
}
