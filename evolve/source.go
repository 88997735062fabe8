package evolve

import (
	"fmt"
	"path"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/evolve/transform"
)

// Source renders a program as one text, the way GeneBench puts multi-file
// programs into a prompt: the main file, then for each module (in name
// order) the line "#The following is code in dependent file <name>:"
// followed by the module's source.
func Source(p *transform.Program) string {
	var b strings.Builder
	b.Write(p.Main)
	for _, name := range sortedKeys(p.Modules) {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "#The following is code in dependent file %s:\n", name)
		b.Write(p.Modules[name])
	}
	return b.String()
}

// moduleFiles returns p's modules as workspace files beside mainPath.
func moduleFiles(p *transform.Program, mainPath string) []adapt.File {
	var out []adapt.File
	dir := path.Dir(mainPath)
	for _, name := range sortedKeys(p.Modules) {
		out = append(out, adapt.File{Path: path.Join(dir, name), Content: string(p.Modules[name])})
	}
	return out
}

// lineageLabel renders a lineage compactly for a task label:
// "S2@<site key>#<seed>" per step, separated by spaces.
func lineageLabel(steps []Step) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = fmt.Sprintf("%s@%s#%d", s.Operator, s.Site.Key, s.Seed)
	}
	return strings.Join(parts, " ")
}

// provenance returns the provenance of a task derived from individual id
// of res.
func provenance(s *Subject, res *Evolution, id int) *adapt.Provenance {
	p := &adapt.Provenance{Generator: "evolve", Parent: s.ID, Operators: res.Operators(id), Seed: res.Seed}
	if s.Task != nil && s.Task.Provenance != nil {
		p.Source = s.Task.Provenance.Source
	}
	return p
}

// labels returns the labels of a derived task: those of the subject's
// task, the kind of task, the version ("original" or "evolved") and the
// lineage.
func labels(s *Subject, res *Evolution, id int, kind string) map[string]string {
	l := map[string]string{}
	if s.Task != nil {
		for k, v := range s.Task.Labels {
			l[k] = v
		}
	}
	l["genebench"] = kind
	if id == 0 {
		l["version"] = "original"
	} else {
		l["version"] = "evolved"
		l["lineage"] = lineageLabel(res.Lineage(id))
	}
	return l
}

// versionName is "original" for the original and "evolved" otherwise.
func versionName(id int) string {
	if id == 0 {
		return "original"
	}
	return "evolved"
}
