//go:build !linux

package exec

import (
	"context"
	"errors"
)

// Config configures a Sandbox or an Unsandboxed runner.
type Config struct {
	PassEnv   []string
	NoCgroups bool
}

// ErrNoNamespaces is returned where the sandbox cannot run.
var ErrNoNamespaces = errors.New("exec: the sandbox needs Linux namespaces; this system has none (use exec.NewUnsandboxed on purpose for trusted code)")

// Sandbox is not available on this system.
type Sandbox struct{}

// NewSandbox always fails here.
func NewSandbox(*Config) (*Sandbox, error) { return nil, ErrNoNamespaces }

// Run always fails here.
func (*Sandbox) Run(context.Context, Job) (Result, error) {
	return Result{Status: StatusInternal}, ErrNoNamespaces
}

// Close does nothing here.
func (*Sandbox) Close() error { return nil }

// Cgroups says that there are none here.
func (*Sandbox) Cgroups() string { return "no cgroups on this system" }

// Unsandboxed is not available on this system yet.
type Unsandboxed struct{}

// NewUnsandboxed returns a runner that always fails here.
func NewUnsandboxed(*Config) *Unsandboxed { return &Unsandboxed{} }

// Run always fails here.
func (*Unsandboxed) Run(context.Context, Job) (Result, error) {
	return Result{Status: StatusInternal}, errors.New("exec: runners are implemented for Linux only")
}

// Close does nothing here.
func (*Unsandboxed) Close() error { return nil }

// jobCgroup is the set of cgroups of a job: Linux only.
type jobCgroup struct{}

// Isolation says that there is none here.
func (*Sandbox) Isolation() string { return "none (no sandbox on this system); no limits" }

// Isolation says that there is none here.
func (*Unsandboxed) Isolation() string { return "none (unsandboxed); no limits" }
