package report

// Manifest says what a run was measured on, so that a number carries its
// conditions and two reports from different machines can be compared
// knowing what differed: the isolation and limits in force, the kernel,
// and the toolchains the tasks ran on. It is not part of an evaluation's
// identity (a journal resumes on another machine, and shards run on
// several: Report.Machines lists each), and it holds no timings.
type Manifest struct {
	// Host is the machine's host name.
	Host string `json:"host,omitempty"`
	// Harness is the Go version, OS and architecture of the program that
	// ran the evaluation.
	Harness string `json:"harness"`
	// Kernel is the kernel's release.
	Kernel string `json:"kernel,omitempty"`
	// Isolation is the runner's own account of the isolation and limit
	// enforcement in force ("user namespaces, seccomp, …; cgroups v2
	// delegated"), for a runner that gives one.
	Isolation string `json:"isolation,omitempty"`
	// Python is the default interpreter's version, and PythonEnv the
	// number of distributions it sees and a digest of their names and
	// versions, when a task is Python. Tasks that name an Environment run
	// on what the EnvProvider gives them instead.
	Python    string `json:"python,omitempty"`
	PythonEnv string `json:"python_env,omitempty"`
	// Java is `java -version`'s first line, when a task is Java.
	Java string `json:"java,omitempty"`
	// Go is the go command's version, when a task is Go.
	Go string `json:"go,omitempty"`
}

// Machine is one machine that produced records of a report (gold checks,
// completions and results, as the report holds them), and how many.
type Machine struct {
	Manifest
	Records int `json:"records"`
}
