package sandbox_test

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestJobLoopback: a job's network namespace has its own loopback up (as
// bubblewrap and nsjail give), so code that probes a free port or talks to
// a server it started itself works, and it still reaches nothing of the
// host: a server on the host's 127.0.0.1 is not the job's 127.0.0.1. Both
// runners.
func TestJobLoopback(t *testing.T) {
	exectest.RequirePython(t, false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	hostPort := ln.Addr().(*net.TCPAddr).Port
	// The job binds a port, closes it (a free-port probe), expects
	// ECONNREFUSED (111) there, then serves and connects to itself, and
	// last tries the host's server's port.
	prog := fmt.Sprintf(`import errno, socket, threading
s = socket.socket(); s.bind(('127.0.0.1', 0)); free = s.getsockname()[1]; s.close()
c = socket.socket(); print('free', c.connect_ex(('localhost', free)) == errno.ECONNREFUSED); c.close()
srv = socket.socket(); srv.bind(('127.0.0.1', 0)); srv.listen(1)
def serve():
    conn, _ = srv.accept(); conn.sendall(b'hello'); conn.close()
threading.Thread(target=serve).start()
c = socket.create_connection(srv.getsockname(), timeout=5); print('self', c.recv(5).decode()); c.close()
c = socket.socket(); c.settimeout(2); print('host', errno.errorcode.get(c.connect_ex(('127.0.0.1', %d)), 'connected'))
`, hostPort)
	runners := map[string]exec.Runner{"sandbox": newSandbox(t), "fork server": forkServer(t)}
	for _, name := range []string{"sandbox", "fork server"} {
		t.Run(name, func(t *testing.T) {
			res, err := runners[name].Run(context.Background(), exec.Job{Args: []string{python, "-c", prog}, Limits: exec.Limits{WallTime: 20 * time.Second}})
			require.NoError(t, err)
			require.Equal(t, exec.StatusOK, res.Status, "%s: %s", res.Detail, res.Stderr)
			assert.Equal(t, "free True\nself hello\nhost ECONNREFUSED\n", string(res.Stdout))
		})
	}
	select {
	case <-accepted:
		t.Fatal("a sandboxed job reached the host's loopback")
	case <-time.After(100 * time.Millisecond):
	}
}
