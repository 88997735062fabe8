//go:build ignore

// gen writes demo.jsonl from the task directories under testdata/tasks.
package main

import (
	"log"
	"os"

	"github.com/adaptbench/adaptbench/adapt"
)

func main() {
	tasks, err := adapt.LoadDir(os.DirFS("testdata"), "tasks")
	if err != nil {
		log.Fatal(err)
	}
	for i := range tasks {
		tasks[i].Provenance = &adapt.Provenance{Generator: "hand-written", Source: "adaptbench demo"}
	}
	if err := adapt.SaveFile("demo.jsonl", tasks); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %d tasks to demo.jsonl", len(tasks))
}
