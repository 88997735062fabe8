package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
	"github.com/adaptbench/adaptbench/versioned/mine"
)

// mineHistory mines a module's releases and writes what it found to -out.
func mineHistory(ctx context.Context, c *config) error {
	mod := c.mineModule
	dir, err := cmdkit.OpenOutDir(c.out, "mine", os.Stdout)
	if err != nil {
		return err
	}
	out := dir.Path()
	bar := progress.New(os.Stderr, "mine "+mod)
	res, err := mine.Generate(ctx, mod, &mine.Options{From: c.from, To: c.to, EnvDir: filepath.Join(c.cacheDir, "gomod"), PerAPI: c.perAPI, Seed: c.seed, Progress: bar.Report})
	bar.Close()
	if err != nil {
		return err
	}
	err = writeFile(filepath.Join(out, "tasks.jsonl"), func(w *bufio.Writer) error { return adapt.WriteTasks(w, res.Tasks) })
	if err == nil {
		err = writeFile(filepath.Join(out, "funnel.md"), func(w *bufio.Writer) error { return res.Funnel.WriteTable(w) })
	}
	if err == nil {
		err = writeFile(filepath.Join(out, "funnel.json"), func(w *bufio.Writer) error { return json.NewEncoder(w).Encode(res.Funnel) })
	}
	if err == nil {
		err = writeFile(filepath.Join(out, "changes.jsonl"), jsonLines(res.Changes))
	}
	if err == nil {
		err = writeFile(filepath.Join(out, "dropped.jsonl"), jsonLines(res.Dropped))
	}
	if err != nil {
		return err
	}
	pairs := len(res.Releases) - 1
	fmt.Printf("%s: %d releases (%s to %s), %d changes\n\n", mod, len(res.Releases), res.Releases[0], res.Releases[len(res.Releases)-1], len(res.Changes))
	if err := res.Funnel.WriteTable(os.Stdout); err != nil {
		return err
	}
	fmt.Printf("\n| stage | time | per release pair |\n|---|---:|---:|\n")
	for _, s := range []string{"list", "fetch", "build", "analyse", "diff", "check", "total"} {
		d := res.Time[s]
		fmt.Printf("| %s | %v | %v |\n", s, d.Round(time.Millisecond), (d / time.Duration(pairs)).Round(time.Millisecond))
	}
	fmt.Printf("\n%d valid\n", len(res.Tasks))
	return nil
}

func writeFile(name string, f func(*bufio.Writer) error) error {
	file, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(file)
	if err := f(w); err != nil {
		file.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		file.Close()
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	fmt.Printf("wrote %s\n", name)
	return nil
}

// jsonLines writes one JSON value per line.
func jsonLines[T any](vs []T) func(*bufio.Writer) error {
	return func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, v := range slices.Clip(vs) {
			if err := enc.Encode(v); err != nil {
				return err
			}
		}
		return nil
	}
}
