package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Per-job kernel budgets. The kernel counts some objects per user, in
// each user namespace and in every namespace above it (kernel/ucount.c):
// inotify instances and watches, fanotify groups and marks, namespaces.
// Jobs that run as one host uid (the caller's, when it is not root) would
// share the host's budget for that uid with each other and with the
// caller: one job holding every inotify instance would leave none to a
// concurrent job or to the caller. Each job's user namespace gets ceilings
// of its own, set by its init, which owns it, before any process of the
// job starts (the /proc/sys/user files are the namespace's): a share of
// the host's budget for the objects a job may use, none for namespaces
// (the seccomp filter refuses them anyway). Per-user budgets the kernel
// keeps outside user namespaces (pipe buffers, epoll watches, pending
// signals, locked shared memory) are not among them: see the package
// doc's trust boundary.

// jobShare is the share of the host's budget each job gets: up to
// jobShare-1 jobs at their ceilings leave some to the caller.
const jobShare = 16

// sharedBudgets are the /proc/sys/user counters a job gets a share of
// (IPC namespaces for its init, which makes one per job, on a thread of
// its own, and frees it after an RCU grace period); noneBudgets, those it
// gets none of (the init has made its namespaces and its root, whose
// open_tree clones count as mount namespaces, when it sets them).
var (
	sharedBudgets = []string{"max_inotify_instances", "max_inotify_watches", "max_fanotify_groups", "max_fanotify_marks",
		"max_ipc_namespaces"}
	noneBudgets = []string{"max_user_namespaces", "max_mnt_namespaces", "max_pid_namespaces", "max_net_namespaces",
		"max_uts_namespaces", "max_cgroup_namespaces", "max_time_namespaces"}
)

var (
	ceilingsOnce sync.Once
	ceilings     map[string]int64
)

// userCeilings are the ceilings of a job's user namespace, read once from
// the host's (a new user namespace starts with no ceiling of its own:
// only those of the namespaces above it hold). A counter the kernel does
// not have is left out.
func userCeilings() map[string]int64 {
	ceilingsOnce.Do(func() {
		ceilings = map[string]int64{}
		for _, name := range sharedBudgets {
			b, err := os.ReadFile("/proc/sys/user/" + name)
			if err != nil {
				continue
			}
			if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
				ceilings[name] = max(1, n/jobShare)
			}
		}
		for _, name := range noneBudgets {
			if _, err := os.Stat("/proc/sys/user/" + name); err == nil {
				ceilings[name] = 0
			}
		}
	})
	return ceilings
}

// setUserCeilings writes the ceilings in this process's user namespace,
// which it owns (the init's). A counter this kernel does not have is
// passed over.
func setUserCeilings(c map[string]int64) error {
	for name, n := range c {
		err := os.WriteFile("/proc/sys/user/"+name, []byte(strconv.FormatInt(n, 10)+"\n"), 0)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("set user.%s to %d in the job's user namespace: %w", name, n, err)
		}
	}
	return nil
}
