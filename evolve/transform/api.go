package transform

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// apiInjection describes an API-injection transform: it inserts the dead
// call made by call before a statement of a function body (or of the
// module, if the program has no function) and adds the import line,
// provided the name ident it binds is used nowhere in the program.
type apiInjection struct {
	id, name, doc, ident, importLine string
	call                             func(rng *rand.Rand) string
}

// transform builds the transform a describes.
func (a apiInjection) transform() *Transform {
	id, name, doc, ident, importLine, call := a.id, a.name, a.doc, a.ident, a.importLine, a.call
	return &Transform{
		ID: id, Name: name, Family: API,
		Doc: doc + ` Sites: before every statement of every function body (after the docstring), or
of the module body (after docstring and imports) when there is no function, while the name ` +
			ident + ` is used nowhere in the program, so at most once per program.`,
		Sites: func(p *Program) []Site {
			return sitesOf(p, func(f *file) []*syntax.Node {
				if f.idents[ident] {
					return nil
				}
				return apiSites(f)
			}, func(*syntax.Node) string { return "before" })
		},
		Apply: func(p *Program, s Site, rng *rand.Rand) (*Program, error) {
			return apply(p, s, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
				if f.idents[ident] {
					return nil, fmt.Errorf("transform: %s: %s is already used", id, ident)
				}
				at := lineStart(f.src, n.Start)
				// Imports first: at the same offset they must come first.
				return append(f.insertImports(importLine), edit(at, at, f.indentOf(n.Start)+call(rng)+"\n")), nil
			})
		},
	}
}

// apiSites returns the statements an API call may be inserted before.
func apiSites(f *file) []*syntax.Node {
	var blocks []*syntax.Node
	f.root.Walk(func(n *syntax.Node) bool {
		if n.Type == "function_definition" {
			if b := n.Child("body"); b != nil && f.blockOnOwnLines(b) {
				blocks = append(blocks, b)
			}
		}
		return true
	})
	var out []*syntax.Node
	if len(blocks) == 0 {
		at := f.importPos()
		for _, c := range f.root.NamedChildren() {
			if c.Start >= at && c.Type != "comment" && f.ownLines(c) &&
				c.Type != "import_statement" && c.Type != "import_from_statement" {
				out = append(out, c)
			}
		}
		return out
	}
	for _, b := range blocks {
		for _, c := range b.NamedChildren() {
			if c.Type == "comment" || isDocstringOf(b, c) {
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

func digits(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + rng.IntN(10)))
	}
	return b.String()
}

func ints(rng *rand.Rand, n int) []string {
	var out []string
	for range n {
		out = append(out, strconv.Itoa(1+rng.IntN(100)))
	}
	return out
}

// The API-injection transforms A1–A8.
var (
	addBase64 = apiInjection{"A1", "AddBase64",
		`Inserts "base64.b64encode(b'<20 random digits>')" and "import base64". Preserving.`,
		"base64", "import base64", func(rng *rand.Rand) string {
			return "base64.b64encode(b'" + digits(rng, 20) + "')"
		}}.transform()
	addCrypto = apiInjection{"A2", "AddCrypto",
		`Inserts "Fernet.generate_key()" and "from cryptography.fernet import Fernet".
Conditional: the cryptography package must be installed.`,
		"Fernet", "from cryptography.fernet import Fernet", func(*rand.Rand) string { return "Fernet.generate_key()" }}.transform()
	addDatetime = apiInjection{"A3", "AddDatetime",
		`Inserts "datetime.datetime.now()" and "import datetime". Preserving.`,
		"datetime", "import datetime", func(*rand.Rand) string { return "datetime.datetime.now()" }}.transform()
	addDateutil = apiInjection{"A4", "AddDateutil",
		`Inserts "parse('<YYYY-MM-DD HH:MM:SS>')" with a random date (GeneBench uses the time of the
transformation) and "from dateutil.parser import parse". Conditional: python-dateutil must be
installed.`,
		"parse", "from dateutil.parser import parse", func(rng *rand.Rand) string {
			return fmt.Sprintf("parse('%04d-%02d-%02d %02d:%02d:%02d')", 2000+rng.IntN(31), 1+rng.IntN(12),
				1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60))
		}}.transform()
	addHttp = apiInjection{"A5", "AddHttp",
		`Inserts "HTTPConnection('google.com', port=80)" (constructed, never connected) and
"from http.client import HTTPConnection". Preserving: the constructor does no I/O.`,
		"HTTPConnection", "from http.client import HTTPConnection", func(*rand.Rand) string {
			return "HTTPConnection('google.com', port=80)"
		}}.transform()
	addScipy = apiInjection{"A6", "AddScipy",
		`Inserts "ttest_ind([3 ints], [3 ints])" (ints from [1, 100]) and "from scipy.stats import
ttest_ind". Each sample has two distinct values, so the variance is never zero and scipy warns
about nothing (GeneBench's samples may be constant, and the RuntimeWarning on stderr fails
harnesses that want it empty). Conditional: scipy must be installed.`,
		"ttest_ind", "from scipy.stats import ttest_ind", func(rng *rand.Rand) string {
			sample := func() []string {
				for {
					s := ints(rng, 3)
					if s[0] != s[1] || s[1] != s[2] {
						return s
					}
				}
			}
			return "ttest_ind([" + strings.Join(sample(), ", ") + "], [" + strings.Join(sample(), ", ") + "])"
		}}.transform()
	addSklearn = apiInjection{"A7", "AddSklearn",
		`Inserts "shuffle([3 ints from [1, 100]])" and "from sklearn.utils import shuffle".
Conditional: scikit-learn must be installed; without a random_state, shuffle draws from numpy's
global generator, which a program seeding and using np.random would see.`,
		"shuffle", "from sklearn.utils import shuffle", func(rng *rand.Rand) string {
			return "shuffle([" + strings.Join(ints(rng, 3), ", ") + "])"
		}}.transform()
	addTime = apiInjection{"A8", "AddTime",
		`Inserts "time.sleep(s)", s a multiple of 0.01 in [0, 0.3] drawn when transforming
(GeneBench draws it at run time), and "import time". Conditional: adds latency at every
execution, which counts against test time limits (inside a loop, once per iteration).`,
		"time", "import time", func(rng *rand.Rand) string {
			return "time.sleep(" + strconv.FormatFloat(float64(rng.IntN(31))/100, 'f', -1, 64) + ")"
		}}.transform()
)
