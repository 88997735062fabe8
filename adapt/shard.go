package adapt

import (
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
)

// Shard selects the tasks of shard Index of Count (0 <= Index < Count) by a
// stable hash of the task ID, so that separate processes each run one shard
// and their journals merge into the report of a single run. Count 0 or 1
// means every task.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Has reports whether the task with this ID belongs to the shard.
func (s Shard) Has(id string) bool {
	if s.Count <= 1 {
		return true
	}
	return s.of(id) == s.Index
}

// of is the index of the shard of Count that holds the task with this ID.
func (s Shard) of(id string) int {
	if s.Count <= 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(s.Count))
}

func (s Shard) String() string {
	if s.Count <= 1 {
		return "all tasks"
	}
	return fmt.Sprintf("shard %d of %d", s.Index, s.Count)
}

// ShardFromEnv reads the shard of this process from the variables a batch
// scheduler sets for each member of an array job:
//
//   - a Kubernetes Indexed Job sets JOB_COMPLETION_INDEX (0 to
//     completions-1) but not the number of completions: pass it as count;
//   - a Slurm job array sets SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN,
//     SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_STEP:
//     the shard is (ID-MIN)/STEP of COUNT, so an array of 1-10 or 0-9 both
//     give shards 0 to 9. count, when not 0, must agree with COUNT.
//
// With neither set it returns the zero Shard (every task) and no error.
// Inconsistent values (an index out of range, a sparse array such as
// --array=1,4,9, a variable set but empty) are an error naming the
// variable; so are both schedulers' variables set at once, since either
// could be the stale one.
func ShardFromEnv(count int) (Shard, error) { return shardFromEnv(os.LookupEnv, count) }

func shardFromEnv(lookup func(string) (string, bool), count int) (Shard, error) {
	getenv := func(name string) string { v, _ := lookup(name); return v }
	slurmID, slurm := lookup("SLURM_ARRAY_TASK_ID")
	k8sIndex, k8s := lookup("JOB_COMPLETION_INDEX")
	if slurm && k8s {
		return Shard{}, fmt.Errorf("adapt: shard from the environment: both SLURM_ARRAY_TASK_ID=%q (a Slurm job array) and JOB_COMPLETION_INDEX=%q (a Kubernetes Indexed Job) are set: unset the one of the scheduler that does not run this process", slurmID, k8sIndex)
	}
	num := func(name string) (int, error) {
		v, err := strconv.Atoi(getenv(name))
		if err != nil {
			return 0, fmt.Errorf("adapt: shard from the environment: %s=%q is not a whole number", name, getenv(name))
		}
		return v, nil
	}
	if slurm {
		id, err := num("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return Shard{}, err
		}
		n, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, err
		}
		lo, err := num("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return Shard{}, err
		}
		hi, err := num("SLURM_ARRAY_TASK_MAX")
		if err != nil {
			return Shard{}, err
		}
		step := 1
		if getenv("SLURM_ARRAY_TASK_STEP") != "" {
			if step, err = num("SLURM_ARRAY_TASK_STEP"); err != nil {
				return Shard{}, err
			}
		}
		if step < 1 || (hi-lo)%step != 0 || (hi-lo)/step+1 != n {
			return Shard{}, fmt.Errorf("adapt: shard from the environment: the Slurm array %d-%d:%d does not hold SLURM_ARRAY_TASK_COUNT=%d tasks: use a dense array (--array=0-%d)", lo, hi, step, n, n-1)
		}
		if count != 0 && count != n {
			return Shard{}, fmt.Errorf("adapt: shard from the environment: SLURM_ARRAY_TASK_COUNT=%d, but the program expects %d shards", n, count)
		}
		if id < lo || id > hi || (id-lo)%step != 0 {
			return Shard{}, fmt.Errorf("adapt: shard from the environment: SLURM_ARRAY_TASK_ID=%d is not in the array %d-%d:%d", id, lo, hi, step)
		}
		return Shard{Index: (id - lo) / step, Count: n}, nil
	}
	if k8s {
		i, err := num("JOB_COMPLETION_INDEX")
		if err != nil {
			return Shard{}, err
		}
		if count < 1 {
			return Shard{}, fmt.Errorf("adapt: shard from the environment: JOB_COMPLETION_INDEX=%d is set but the number of shards is not: pass the Job's completions as count", i)
		}
		if i < 0 || i >= count {
			return Shard{}, fmt.Errorf("adapt: shard from the environment: JOB_COMPLETION_INDEX=%d is out of range for %d shards", i, count)
		}
		return Shard{Index: i, Count: count}, nil
	}
	return Shard{}, nil
}
