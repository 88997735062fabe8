package solution

import "testing"

func queue(n int) []*Job {
	jobs := make([]*Job, n)
	for i := range jobs {
		jobs[i] = &Job{ID: i, Payload: make([]byte, 16)}
	}
	return jobs
}

func ids(jobs []*Job) []int {
	var out []int
	for _, j := range jobs {
		out = append(out, j.ID)
	}
	return out
}

func TestVisibleRemoveAt(t *testing.T) {
	jobs := queue(4)
	got := RemoveAt(jobs, 1)
	if len(got) != 3 || got[0].ID != 0 || got[1].ID != 2 || got[2].ID != 3 {
		t.Fatalf("RemoveAt(queue(4), 1) = %v, want [0 2 3]", ids(got))
	}
	if tail := jobs[3]; tail != nil {
		t.Fatalf("the backing array still points to job %d past the new length", tail.ID)
	}
}

func TestRemoveAtEnds(t *testing.T) {
	jobs := queue(3)
	got := RemoveAt(jobs, 2)
	if len(got) != 2 || got[1].ID != 1 || jobs[2] != nil {
		t.Fatalf("RemoveAt(queue(3), 2) = %v, backing array %v", ids(got), jobs[2])
	}
	jobs = queue(3)
	got = RemoveAt(jobs, 0)
	if len(got) != 2 || got[0].ID != 1 || jobs[2] != nil {
		t.Fatalf("RemoveAt(queue(3), 0) = %v, backing array %v", ids(got), jobs[2])
	}
}

func TestRemoveAtOutOfRange(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("RemoveAt(queue(2), 5) did not panic")
		}
	}()
	RemoveAt(queue(2), 5)
}
