// Package maven is mutate's build system for Maven projects: [Open]
// copies a project into a private directory, builds it once with Maven
// and returns it as a mutate.Project whose tests run in an exec.Runner (a
// sandbox).
//
//	sb, _ := sandbox.New(nil)
//	proj, err := maven.Open(ctx, dir, sb, nil)
//	if err != nil { … }
//	defer proj.Close()
//	res, err := mutate.Generate(ctx, proj, &mutate.Options{Seed: 1})
//
// It implements mutate.Project from outside mutate, as any build system
// would, and also the optional methods mutate.Generate looks for: Prepare
// (decide on many mutants at once), CheckBatch (check many at once) and
// CoverageAll (every test's coverage in one run).
//
// # Builds
//
// The project is built once on the host with "mvn -B -o -q -s
// /etc/maven/settings-debian.xml -DforkCount=0 test-compile" against
// Debian's repository (the pom pins Debian's plugin versions). That build
// is trusted and runs unsandboxed; the project's code then runs only in
// the sandbox. A mutant's file is recompiled alone into a directory put
// first on the class path. The mutants of a validation step are compiled
// together ([Project.Prepare]), in one sandboxed JVM that runs the system
// Java compiler once per mutant with the command line its own javac would
// get (Config.CompileEach: a javac each).
//
// # Tests
//
// Tests run through exec.JUnit, named by their JUnit Platform unique IDs
// (pkg.Class#method, pkg.Class#method[3] for an invocation of a
// parameterized, repeated or dynamic test), so that each can be selected
// alone. The checks of a validation step share JVMs
// ([Project.CheckBatch], exec.JUnit.TestRounds): each mutant's classes in
// a class loader of their own, after a control round of the original that
// must pass every test the checks name; a mutant that loops or exits its
// JVM, or one the JVMs did not decide, is checked in a JVM of its own, so
// every check gives the TestRun a JVM per check gives (Config.TestEach is
// that path). Test dependencies other than JUnit are not resolved.
//
// # Coverage
//
// [Project.CoverageAll] runs every test in one JVM with Debian's JaCoCo
// agent (libjacoco-java 0.8.6, hence --release 11), the agent's data taken
// and reset after each test and container, and read on the host
// (jacoco_lines.java). A test's lines are those run during it and in its
// containers; a class's static initializer is credited to every test that
// ran code of the class. What one JVM cannot give back: a test that only
// reads a static field of a class misses the class's initializer lines,
// and the methods an initializer calls are credited only to the first test
// that used the class. [Project.Coverage] runs one test per JVM.
package maven
