package adapt

import (
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"strings"
)

// Shard selects the tasks of shard Index of Count (0 <= Index < Count) by a
// stable hash of the task ID, so that separate processes each run one shard
// and their journals merge into the report of a single run. Count 0 or 1
// means every task.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// has reports whether the task with this ID belongs to the shard.
func (s Shard) has(id string) bool {
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
//   - a Slurm job array sets SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN,
//     SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_STEP:
//     the shard is (ID-MIN)/STEP of COUNT, so an array of 1-10 or 0-9 both
//     give shards 0 to 9;
//   - a Kubernetes Indexed Job sets JOB_COMPLETION_INDEX (0 to
//     completions-1) but not the number of completions: pass it as count;
//   - an AWS Batch array job sets AWS_BATCH_JOB_ARRAY_INDEX but not the
//     array's size: pass it as count, or set AWS_BATCH_JOB_ARRAY_SIZE in
//     the job definition;
//   - a Google Cloud Batch job sets BATCH_TASK_INDEX and BATCH_TASK_COUNT.
//
// count, when not 0, must agree with the count the scheduler gives. With
// no scheduler's variables it returns the zero Shard (every task) and no
// error. Inconsistent values (an index out of range, a sparse array such
// as --array=1,4,9, a variable set but empty) are an error naming the
// variable; so are two schedulers' variables set at once, since either
// could be the stale one.
func ShardFromEnv(count int) (Shard, error) { return shardFromEnv(os.LookupEnv, count) }

// schedulers are the batch schedulers ShardFromEnv knows: the variable
// that holds a member's index, and the one that holds the array's size
// where the scheduler sets one.
var schedulers = []struct{ name, index, count string }{
	{"a Slurm job array", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"},
	{"a Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", ""},
	{"an AWS Batch array job", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE"},
	{"a Google Cloud Batch job", "BATCH_TASK_INDEX", "BATCH_TASK_COUNT"},
}

func shardFromEnv(lookup func(string) (string, bool), count int) (Shard, error) {
	var set []string
	which := -1
	for i, sc := range schedulers {
		if v, ok := lookup(sc.index); ok {
			set = append(set, fmt.Sprintf("%s=%q (%s)", sc.index, v, sc.name))
			which = i
		}
	}
	switch {
	case len(set) > 1:
		return Shard{}, fmt.Errorf("adapt: shard from the environment: %s are all set: unset those of the schedulers that do not run this process", strings.Join(set, " and "))
	case which < 0:
		return Shard{}, nil
	}
	num := func(name string) (int, error) {
		v, _ := lookup(name)
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("adapt: shard from the environment: %s=%q is not a whole number", name, v)
		}
		return n, nil
	}
	if which == 0 {
		return slurmShard(lookup, num, count)
	}
	sc := schedulers[which]
	i, err := num(sc.index)
	if err != nil {
		return Shard{}, err
	}
	n := count
	if _, ok := lookup(sc.count); ok && sc.count != "" {
		if n, err = num(sc.count); err != nil {
			return Shard{}, err
		}
		if count != 0 && count != n {
			return Shard{}, fmt.Errorf("adapt: shard from the environment: %s=%d, but the program expects %d shards", sc.count, n, count)
		}
	}
	if n < 1 {
		return Shard{}, fmt.Errorf("adapt: shard from the environment: %s=%d is set but the number of shards is not: pass the number of shards (a Job's completions, an array's size) as count", sc.index, i)
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("adapt: shard from the environment: %s=%d is out of range for %d shards", sc.index, i, n)
	}
	return Shard{Index: i, Count: n}, nil
}

// slurmShard maps a Slurm array task to its shard.
func slurmShard(lookup func(string) (string, bool), num func(string) (int, error), count int) (Shard, error) {
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
	if v, _ := lookup("SLURM_ARRAY_TASK_STEP"); v != "" {
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
