package adapt

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// MaxPreload bounds how many modules [Preload] returns.
const MaxPreload = 64

// Preload returns the modules the code of tasks imports at its top level
// (absolute imports of Python tasks that run on the machine's interpreter,
// that is with no Env), most imported first, then by name, at most
// MaxPreload: the list a fork server imports once so that each job finds
// them loaded (exec.ForkServerConfig.Preload, on top of
// exec.DefaultPreload). When Options.Runner is nil, Evaluate's fork server
// preloads them, so that tasks whose code imports numpy or scipy (evolve's
// API operators inject such imports) do not pay for the import in every
// job. A module whose top-level name is also a file or directory of some
// task's workspace is left out: the job must import the task's own.
// Preloading never changes what a job can import; a module the
// interpreter lacks is passed over by the server.
func Preload(tasks []Task) []string {
	ptrs := make([]*Task, len(tasks))
	for i := range tasks {
		ptrs[i] = &tasks[i]
	}
	return preload(ptrs)
}

func preload(tasks []*Task) []string {
	local := map[string]bool{}
	for _, t := range tasks {
		for _, p := range workspacePaths(t) {
			top, _, _ := strings.Cut(p, "/")
			local[strings.TrimSuffix(top, ".py")] = true
		}
	}
	count := map[string]int{}
	for _, t := range tasks {
		if t.Language != Python || t.Env != nil {
			continue
		}
		seen := map[string]bool{}
		for _, src := range pythonSources(t) {
			root, err := syntax.ParseNodes(syntax.Python, []byte(src))
			if err != nil {
				continue
			}
			for _, im := range syntax.PyImports(root, []byte(src)) {
				top, _, _ := strings.Cut(im.Module, ".")
				if im.Nested || im.Level > 0 || im.Future || im.Module == "" || local[top] || seen[im.Module] {
					continue
				}
				seen[im.Module] = true
				count[im.Module]++
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
	return mods[:min(len(mods), MaxPreload)]
}

// workspacePaths lists the paths of a task's workspace (its base's files
// included).
func workspacePaths(t *Task) []string {
	out := []string{t.Target.Path}
	for _, f := range t.WorkspaceFiles() {
		out = append(out, f.Path)
	}
	return out
}

// pythonSources returns the Python code of a task: its target file and its
// other .py files (its base's included).
func pythonSources(t *Task) []string {
	out := []string{t.Target.Content}
	for _, f := range t.WorkspaceFiles() {
		if path.Ext(f.Path) == ".py" {
			out = append(out, f.Content)
		}
	}
	return out
}
