package adapt

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// maxPreload bounds how many modules preload returns.
const maxPreload = 64

// preload returns the modules the code of tasks imports at its top level
// (absolute imports of Python tasks that run on the machine's interpreter,
// that is with no Env), most imported first, then by name, at most
// maxPreload: the list a fork server imports once so that each job finds
// them loaded (sandbox.ForkServerConfig.Preload, on top of
// sandbox.DefaultPreload). When Options.Runner is nil, Evaluate's fork server
// preloads them, so that tasks whose code imports numpy or scipy (evolve's
// API operators inject such imports) do not pay for the import in every
// job. A module whose top-level name is also a file or directory of some
// task's workspace is left out: the job must import the task's own.
// Preloading never changes what a job can import; a module the
// interpreter lacks is passed over by the server.
func preload(tasks []*Task) []string {
	files := make([][]File, len(tasks))
	local := map[string]bool{}
	for i, t := range tasks {
		files[i] = t.WorkspaceFiles()
		paths := []string{t.Target.Path}
		for _, f := range files[i] {
			paths = append(paths, f.Path)
		}
		for _, p := range paths {
			top, _, _ := strings.Cut(p, "/")
			local[strings.TrimSuffix(top, ".py")] = true
		}
	}
	// Tasks made from one project share most of their files (a base):
	// each distinct source is parsed once.
	parsed := map[string][]string{}
	imports := func(src string) []string {
		mods, ok := parsed[src]
		if !ok {
			if root, err := syntax.ParseNodes(syntax.Python, []byte(src)); err == nil {
				for _, im := range syntax.PyImports(root, []byte(src)) {
					if !im.Nested && im.Level == 0 && !im.Future && im.Module != "" {
						mods = append(mods, im.Module)
					}
				}
			}
			parsed[src] = mods
		}
		return mods
	}
	count := map[string]int{}
	for i, t := range tasks {
		if t.Language != Python || t.Env != nil {
			continue
		}
		seen := map[string]bool{}
		sources := []string{t.Target.Content}
		for _, f := range files[i] {
			if path.Ext(f.Path) == ".py" {
				sources = append(sources, f.Content)
			}
		}
		for _, src := range sources {
			for _, m := range imports(src) {
				top, _, _ := strings.Cut(m, ".")
				if !local[top] && !seen[m] {
					seen[m] = true
					count[m]++
				}
			}
		}
	}
	mods := make([]string, 0, len(count))
	for m := range count {
		mods = append(mods, m)
	}
	slices.SortFunc(mods, func(a, b string) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b))
	})
	return mods[:min(len(mods), maxPreload)]
}
