package transform

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
)

// Program is a Python program under transformation.
type Program struct {
	// Main is the module under test (the solution).
	Main []byte
	// Modules holds the extra modules a transform created (S7:
	// "name.py" -> source); nil if none.
	Modules map[string][]byte
	// Protected lists names that are never renamed, moved or removed: the
	// entry point and every name the tests call.
	Protected []string
}

// Clone returns a deep copy of p.
func (p *Program) Clone() *Program {
	q := &Program{Main: slices.Clone(p.Main), Protected: slices.Clone(p.Protected)}
	if p.Modules != nil {
		q.Modules = make(map[string][]byte, len(p.Modules))
		for k, v := range p.Modules {
			q.Modules[k] = slices.Clone(v)
		}
	}
	return q
}

// Hash returns the hex sha256 of Main followed by the modules in sorted
// name order, each framed by its name and length so that no two different
// programs share a hash by moving bytes between files.
func (p *Program) Hash() string {
	h := sha256.New()
	h.Write(p.Main)
	for _, name := range slices.Sorted(maps.Keys(p.Modules)) {
		h.Write([]byte("\x00" + name + "\x00"))
		var n [8]byte
		l := len(p.Modules[name])
		for i := range n {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write(p.Modules[name])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// protected reports whether name is one of p.Protected.
func (p *Program) protected(name string) bool { return slices.Contains(p.Protected, name) }

// with returns a copy of p whose Main is main (Modules and Protected are
// copied too, so the result shares nothing with p).
func (p *Program) with(main []byte) *Program {
	q := p.Clone()
	q.Main = main
	return q
}

// sortedKeys returns the keys of m in increasing order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
