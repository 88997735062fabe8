package exec

import (
	"fmt"
	"strconv"
	"strings"
)

// Status is the verdict of one run. Its zero value, StatusInvalid, marks a
// Result that was never filled in. The text forms (String, MarshalText) are
// stable and are what journals and reports store.
type Status uint8

const (
	// StatusInvalid is the zero value: no verdict was set.
	StatusInvalid Status = iota
	// StatusOK: the process exited with code 0 within every limit.
	StatusOK
	// StatusExit: the process exited with a non-zero code.
	StatusExit
	// StatusCPUTime: the job used more CPU time than Limits.CPUTime.
	StatusCPUTime
	// StatusWallTime: the job ran longer than Limits.WallTime.
	StatusWallTime
	// StatusMemory: the job used more memory than Limits.Memory.
	StatusMemory
	// StatusOutput: the job wrote more than Limits.Output bytes to stdout and
	// stderr together, a file larger than Limits.FileSize, or failed with
	// its workspace full (Limits.Disk, Limits.DiskFiles).
	StatusOutput
	// StatusSignal: the process was killed by a signal that no limit explains.
	StatusSignal
	// StatusCanceled: the caller's context was canceled before the job ended.
	StatusCanceled
	// StatusInternal: the sandbox or the harness failed; nothing is known
	// about the code under test. Never count it as a failure of that code.
	StatusInternal
)

var statusNames = [...]string{
	StatusInvalid:  "invalid",
	StatusOK:       "ok",
	StatusExit:     "exit",
	StatusCPUTime:  "cpu-time",
	StatusWallTime: "wall-time",
	StatusMemory:   "memory",
	StatusOutput:   "output",
	StatusSignal:   "signal",
	StatusCanceled: "canceled",
	StatusInternal: "internal",
}

// String returns the stable text form, such as "cpu-time".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText implements encoding.TextMarshaler.
func (s Status) MarshalText() ([]byte, error) {
	if int(s) >= len(statusNames) {
		return nil, fmt.Errorf("exec: cannot marshal unknown status %d", s)
	}
	return []byte(statusNames[s]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler. It rejects unknown and
// empty names.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if string(b) == n {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("exec: unknown status %q (want one of %s)", b, strings.Join(statusNames[:], ", "))
}

// TimedOut reports whether the status is a CPU or wall time limit.
func (s Status) TimedOut() bool { return s == StatusCPUTime || s == StatusWallTime }

// Size is a number of bytes. It implements flag.Value and encoding.TextMarshaler
// with forms such as "512MiB", "64KiB", "1GiB" or plain "1048576".
type Size uint64

// Common sizes.
const (
	KiB Size = 1 << 10
	MiB Size = 1 << 20
	GiB Size = 1 << 30
)

// String returns the size with the largest binary unit that divides it.
func (z Size) String() string {
	switch {
	case z != 0 && z%GiB == 0:
		return strconv.FormatUint(uint64(z/GiB), 10) + "GiB"
	case z != 0 && z%MiB == 0:
		return strconv.FormatUint(uint64(z/MiB), 10) + "MiB"
	case z != 0 && z%KiB == 0:
		return strconv.FormatUint(uint64(z/KiB), 10) + "KiB"
	}
	return strconv.FormatUint(uint64(z), 10) + "B"
}

// Set parses s (flag.Value). It accepts an integer followed by an optional
// unit B, K/KiB, M/MiB or G/GiB, and rejects the empty string.
func (z *Size) Set(s string) error {
	t := strings.TrimSpace(s)
	if t == "" {
		return fmt.Errorf("exec: empty size (want a number such as 512MiB)")
	}
	mult := Size(1)
	for _, u := range []struct {
		suffix string
		m      Size
	}{{"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB}, {"G", GiB}, {"M", MiB}, {"K", KiB}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil {
		return fmt.Errorf("exec: bad size %q (want a number such as 512MiB)", s)
	}
	if n > (1<<64-1)/uint64(mult) {
		return fmt.Errorf("exec: size %q overflows", s)
	}
	*z = Size(n) * mult
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (z Size) MarshalText() ([]byte, error) { return []byte(z.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (z *Size) UnmarshalText(b []byte) error { return z.Set(string(b)) }
