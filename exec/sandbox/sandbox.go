package sandbox

import "github.com/adaptbench/adaptbench/exec"

// Config configures a Sandbox or an Unsandboxed runner. The zero value (or a
// nil *Config) is the default.
type Config struct {
	// PassEnv names variables of the caller's environment that jobs see.
	// None by default: API keys and tokens never reach untrusted code.
	PassEnv []string
	// NoCgroups turns off cgroups even where the machine has them; limits
	// then rest on rlimits alone.
	NoCgroups bool
	// ReadOnly names host paths every job sees read-only besides the
	// minimal root (see Job.ReadOnly).
	ReadOnly []string
}

// set reports whether a Size limit applies.
func set(z exec.Size) bool { return z != 0 && z != exec.Unlimited }
