package transform

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRenameScopes(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		tr           *Transform
		src          string
		protect      []string
		sites        []string // the names at the sites, in order
		at           int      // the site to apply
		want         string
	}{{
		name: "global", reason: "a name declared global is the module's, not the function's",
		tr: renameVariable, sites: []string{"x"},
		src:  "count = 0\ndef f():\n    global count\n    count += 1\n    x = count\n    return x\n",
		want: "count = 0\ndef f():\n    global count\n    count += 1\n    newx_0 = count\n    return newx_0\n",
	}, {
		name: "shadowed", reason: "a parameter of a nested def or lambda is another variable",
		tr: renameVariable, sites: []string{"v"},
		src:  "def f(a):\n    v = a + 1\n    def g(v):\n        return v * 2\n    return g(v) + (lambda v: v)(3)\n",
		want: "def f(a):\n    newv_0 = a + 1\n    def g(v):\n        return v * 2\n    return g(newv_0) + (lambda v: v)(3)\n",
	}, {
		name: "walrus", reason: "a walrus in a comprehension binds in the enclosing function",
		tr: renameVariable, sites: []string{"ys", "last"}, at: 1,
		src:  "def f(xs):\n    ys = [last := x for x in xs]\n    return last, ys\n",
		want: "def f(xs):\n    ys = [newlast_0 := x for x in xs]\n    return newlast_0, ys\n",
	}, {
		name: "locals", reason: "a function that reads locals() by name keeps its names",
		tr: renameVariable, sites: nil,
		src: "def f():\n    x = 1\n    return locals()\n",
	}, {
		name: "keyword and attribute", reason: "keyword argument names and attributes are not variables",
		tr: renameVariable, sites: []string{"value"},
		src:  "def f(obj):\n    value = obj.value\n    return dict(value=value), obj.value\n",
		want: "def f(obj):\n    newvalue_0 = obj.value\n    return dict(value=newvalue_0), obj.value\n",
	}, {
		name: "taken", reason: "the new name must be unused",
		tr: renameVariable, sites: []string{"x"},
		src:  "newx_0 = 5\ndef f():\n    x = newx_0\n    return x\n",
		want: "newx_0 = 5\ndef f():\n    newx_1 = newx_0\n    return newx_1\n",
	}, {
		name: "class body", reason: "a class body binds its own names; methods skip it",
		tr: renameVariable, sites: []string{"k"},
		src:  "def f():\n    k = 1\n    class C:\n        k = 2\n        m = k\n        def g(self):\n            return k\n    return k, C.m, C().g()\n",
		want: "def f():\n    newk_0 = 1\n    class C:\n        k = 2\n        m = k\n        def g(self):\n            return newk_0\n    return newk_0, C.m, C().g()\n",
	}, {
		name: "except and with", reason: "with-as, except-as and for targets bind",
		tr: renameVariable, sites: []string{"fh", "data", "err"}, at: 2,
		src:  "def f(path):\n    try:\n        with open(path) as fh:\n            data = fh.read()\n    except OSError as err:\n        data = str(err)\n    return data\n",
		want: "def f(path):\n    try:\n        with open(path) as fh:\n            data = fh.read()\n    except OSError as newerr_0:\n        data = str(newerr_0)\n    return data\n",
	}, {
		name: "comprehension iterable", reason: "the first iterable of a comprehension is evaluated outside it",
		tr: renameVariable, sites: []string{"x"},
		src:  "def f():\n    x = [1, 2]\n    return [x for x in x]\n",
		want: "def f():\n    newx_0 = [1, 2]\n    return [x for x in newx_0]\n",
	}, {
		name: "functions", reason: "protected names, methods and imports are not renamed; decorators and values are",
		tr: renameFunction, protect: []string{"solve"}, sites: []string{"deco", "helper"}, at: 1,
		src:  "from os import path\ndef deco(f):\n    return f\n@deco\ndef helper(x):\n    return x\nclass C:\n    def helper(self):\n        return helper\ndef solve():\n    return helper(1), C().helper(), path\n",
		want: "from os import path\ndef deco(f):\n    return f\n@deco\ndef Func_helper_0(x):\n    return x\nclass C:\n    def helper(self):\n        return Func_helper_0\ndef solve():\n    return Func_helper_0(1), C().helper(), path\n",
	}, {
		name: "rebound function", reason: "a function whose name is bound twice is not renamed",
		tr: renameFunction, protect: []string{"solve"}, sites: nil,
		src: "def helper():\n    return 1\nhelper = None\ndef solve():\n    return 2\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Main: []byte(tc.src), Protected: tc.protect}
			sites := tc.tr.Sites(p)
			var names []string
			for _, s := range sites {
				names = append(names, tc.src[s.Start:s.End])
			}
			require.Equal(t, tc.sites, names, "%s: sites", tc.reason)
			if len(sites) == 0 {
				return
			}
			q, err := tc.tr.Apply(p, sites[tc.at], rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			assert.Equal(t, tc.want, string(q.Main), "%s", tc.reason)
		})
	}
}
