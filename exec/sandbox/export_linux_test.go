package sandbox

// CgroupVersion is the cgroup version of the memory and pids cgroups s
// puts its jobs in (1 or 2), or 0 when it has none (rlimits stand in).
func CgroupVersion(s *Sandbox) int {
	switch l := s.p.cg; {
	case l.memory == "" || l.pids == "":
		return 0
	case l.v2:
		return 2
	}
	return 1
}

// Cgroups describes which limits rest on cgroups on this machine for s and
// why others do not; empty when cgroups are used for memory, processes and
// CPU.
func Cgroups(s *Sandbox) string { return s.cgroups() }

// Fallback reports why jobs f could take went through its Sandbox instead
// (its servers could not start), or nil.
func Fallback(f *ForkServer) error { return f.fallback() }

// KillIdleServers ends the process of every idle server of f and leaves
// it in the pool, as a server that died between jobs (killed from outside)
// is: the next job finds it gone.
func KillIdleServers(f *ForkServer) int {
	f.mu.Lock()
	var list []*pyServer
	for _, l := range f.idle {
		list = append(list, l...)
	}
	f.mu.Unlock()
	for _, s := range list {
		s.cancel()
		<-s.done
	}
	return len(list)
}
