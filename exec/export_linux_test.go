package exec

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
