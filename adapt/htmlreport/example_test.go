package htmlreport_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
)

// The HTML report of a run: one self-contained page (usually written to
// report.html beside the run's other outputs) whose content security
// policy loads nothing and runs only the page's own script. Given the
// tasks, its explorer shows each task's prompt, code and reference, and
// diffs every sample against them. The same report gives the same bytes.
func ExampleWrite() {
	tasks, err := demo.Tasks()
	if err != nil {
		log.Fatal(err)
	}
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, nil)
	if err != nil {
		log.Fatal(err)
	}
	var page, again bytes.Buffer
	for _, b := range []*bytes.Buffer{&page, &again} {
		if err := htmlreport.Write(b, rep, &htmlreport.Options{Tasks: tasks}); err != nil {
			log.Fatal(err)
		}
	}
	html := page.String()
	title := html[strings.Index(html, "<title>") : strings.Index(html, "</title>")+len("</title>")]
	fmt.Println(title)
	fmt.Println("loads nothing:", strings.Contains(html, `content="default-src 'none';`) && !strings.Contains(html, " src="))
	fmt.Println("script elements (data, code):", strings.Count(html, "<script"))
	fmt.Println("the same bytes again:", bytes.Equal(page.Bytes(), again.Bytes()))
	// Output:
	// <title>adaptbench: reference</title>
	// loads nothing: true
	// script elements (data, code): 2
	// the same bytes again: true
}
