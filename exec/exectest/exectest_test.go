package exectest_test

import (
	"fmt"
	osexec "os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestLeftFindsLeaks: what a broken runner would leave on the host is
// reported: a SysV shared memory segment and a child process.
func TestLeftFindsLeaks(t *testing.T) {
	before := exectest.Snapshot()
	assert.Empty(t, exectest.Left(before))

	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	require.NoError(t, err)
	defer unix.SysvShmCtl(id, unix.IPC_RMID, nil)
	cmd := osexec.Command("sleep", "30")
	require.NoError(t, cmd.Start())
	defer func() { cmd.Process.Kill(); cmd.Wait() }()

	left := strings.Join(exectest.Left(before), "\n")
	assert.Contains(t, left, fmt.Sprintf("SysV IPC object shm %d", id))
	assert.Contains(t, left, fmt.Sprintf("child process %d: sleep 30", cmd.Process.Pid))
}
