package demo

import (
	"bytes"
	_ "embed"

	"github.com/adaptbench/adaptbench/adapt"
)

//go:embed demo.jsonl
var demoJSONL []byte

// Tasks returns the demo benchmark's tasks, in a fixed order. Each call
// returns a fresh copy.
func Tasks() ([]adapt.Task, error) {
	return adapt.ReadTasks(bytes.NewReader(demoJSONL), "demo.jsonl")
}
