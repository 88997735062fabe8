// Package provenance stamps tasks with where their data came from, for
// the loaders and generators that read tasks out of a repository.
package provenance

import "github.com/adaptbench/adaptbench/adapt"

// SetRevision records in the provenance of every task the repository and
// commit its data was read from (package source's Snapshot.Repo and
// Snapshot.Commit), giving a task without provenance one. Each task gets
// its own copy of its provenance, so tasks that shared one do not change
// each other. It is what every loader's LoadRevision calls.
func SetRevision(tasks []adapt.Task, repo, commit string) {
	for i := range tasks {
		var p adapt.Provenance
		if tasks[i].Provenance != nil {
			p = *tasks[i].Provenance
		}
		p.Repo, p.Commit = repo, commit
		tasks[i].Provenance = &p
	}
}
