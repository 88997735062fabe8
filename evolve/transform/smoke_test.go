package transform

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

func TestSmoke(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("SMOKE"))
	if err != nil {
		t.Skip()
	}
	p := &Program{Main: src, Protected: []string{"f"}}
	for _, tr := range append(Suite[:len(Suite):len(Suite)], Bugs...) {
		q, s, err := Random(p, tr, rand.New(rand.NewPCG(1, 2)))
		fmt.Printf("==== %s %s %v %v\n", tr.ID, tr.Name, s, err)
		if err == nil {
			fmt.Print(string(q.Main))
			for k, v := range q.Modules {
				fmt.Printf("---- %s\n%s", k, v)
			}
		}
	}
}
