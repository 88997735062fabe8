// Package versioned conditions problems on library versions: it loads the
// GitChameleon benchmark as published, and provisions the environments
// (interpreter and package versions) that version-conditioned tasks name.
//
// A task only names its environment, as plain data in adapt.Task.Env;
// adapt.Evaluate asks an adapt.EnvProvider to turn that name into an
// interpreter. This package implements the provider, so adapt never
// imports it.
//
// # Problems
//
// [Read] and [LoadFile] read dataset.jsonl as published: the 0/1/"0"/"1"
// fields become a [Flag], extra_dependencies is optional, and every key,
// known or not, is kept in [Problem.Raw]. [ReadSolutions] reads solution
// files ({"example_id", "answer"}, with "solution" and "output" accepted as
// aliases, as upstream does), such as ground_truth_solutions.jsonl.
// [SolutionModel] turns a solution file into an adapt.Model, so a saved
// run is scored by adapt.Evaluate like a live one. [Tasks] makes one
// adapt.Task per problem:
//
//	target      sample_<id>.py, the whole module (starter code + completion)
//	reference   Problem.Reference()
//	env         python_version; library==version; the additional and extra deps
//	test        test_visible.TestVisible.test_visible: the module followed by
//	            the record's visible test, run as one script under __main__
//	labels      library, version, python, type_of_change, category, style, webdev
//
// The hidden tests are not distributed with the dataset, so only the
// visible test decides here. [Problem.CompatKey] is the upstream harness's
// environment key (a directory gcham_venv_<key> of a .dataset_venvs tree);
// [Categorize] and [CategorizeFig4] map the free-text type_of_change to a
// [ChangeCategory].
//
// # Environments
//
// An [EnvSpec] says what an environment holds; [EnvSpec.Key] is its content
// key. A [Provisioner] turns a spec into an [Env]. The one here is [Cache]:
// it keeps one directory per key, with a manifest.json (what is installed,
// the interpreter's version, whether it is faithful to the spec and what
// differs) written last, reuses what it finds, builds a key once however
// many callers ask at once, and bounds the builds in flight. A [Builder]
// does the building:
//
//   - [Venv]: `python -m venv DIR`, then `python -m pip install --no-index
//     --find-links WHEELHOUSE pkg==ver ...`. Fully offline; faithful when
//     the interpreter and wheels match the spec.
//   - [System]: an interpreter as it is (Debian's python3 and python3-*
//     packages). It installs nothing, and its environments are faithful
//     only where the versions happen to match: good for smoke tests, never
//     for official numbers.
//
// [Provider] adapts a Provisioner to adapt.EnvProvider; with Strict it
// refuses unfaithful environments ([ErrUnfaithful]), which adapt reports as
// an invalid task rather than a model failure.
//
//	cache := &versioned.Cache{Dir: "/var/tmp/envs", Builder: &versioned.Venv{Wheelhouse: "/srv/wheels"}}
//	opts := &adapt.Options{Environments: &versioned.Provider{Provisioner: cache, Strict: true}}
//	rep, err := adapt.Evaluate(ctx, tasks, model, opts)
//
// The sandbox hides the host's /tmp and /dev/shm and runs jobs as nobody,
// so a cache used with it must live elsewhere (the default is
// [DefaultCacheDir]) on a path everyone can traverse; Cache makes what it
// builds world-readable. A venv links to its base interpreter, which must
// stay where it was. Builders run pip and python unsandboxed: wheelhouses
// are trusted input.
//
// # Not stable
//
// The manifest's JSON form, the key derivation of EnvSpec.Key (a change
// rebuilds caches) and the exact text of the visible-test wrapper may
// change.
package versioned
