//go:build !linux

package sandbox

import (
	"context"
	"errors"

	"github.com/adaptbench/adaptbench/exec"
)

// ErrNoNamespaces is returned where the sandbox cannot run.
var ErrNoNamespaces = errors.New("exec: the sandbox needs Linux namespaces; this system has none (use sandbox.NewUnsandboxed on purpose for trusted code)")

// Sandbox is not available on this system.
type Sandbox struct{}

// New always fails here.
func New(*Config) (*Sandbox, error) { return nil, ErrNoNamespaces }

// Run always fails here.
func (*Sandbox) Run(context.Context, exec.Job) (exec.Result, error) {
	return exec.Result{Status: exec.StatusInternal}, ErrNoNamespaces
}

// Close does nothing here.
func (*Sandbox) Close() error { return nil }

// cgroups says that there are none here.
func (*Sandbox) cgroups() string { return "no cgroups on this system" }

// Unsandboxed is not available on this system yet.
type Unsandboxed struct{}

// NewUnsandboxed returns a runner that always fails here.
func NewUnsandboxed(*Config) *Unsandboxed { return &Unsandboxed{} }

// Run always fails here.
func (*Unsandboxed) Run(context.Context, exec.Job) (exec.Result, error) {
	return exec.Result{Status: exec.StatusInternal}, errors.New("exec: runners are implemented for Linux only")
}

// Close does nothing here.
func (*Unsandboxed) Close() error { return nil }

// jobCgroup is the set of cgroups of a job: Linux only.
type jobCgroup struct{}

// Isolation says that there is none here.
func (*Sandbox) Isolation() string { return "none (no sandbox on this system); no limits" }

// Isolation says that there is none here.
func (*Unsandboxed) Isolation() string { return "none (unsandboxed); no limits" }
