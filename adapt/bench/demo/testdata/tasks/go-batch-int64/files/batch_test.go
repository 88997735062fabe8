package batch

import (
	"errors"
	"reflect"
	"testing"
)

func TestBatchesSplits(t *testing.T) {
	got, _ := Batches([]int64{1, 2, 3, 4, 5}, 2)
	want := [][]int64{{1, 2}, {3, 4}, {5}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Batches(1..5, 2) = %v, want %v", got, want)
	}
}

func TestBatchesKeepsInt64(t *testing.T) {
	big := []int64{1 << 40, -1 << 50, 1<<63 - 1}
	got, _ := Batches(big, 2)
	if want := [][]int64{big[:2], big[2:]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Batches = %v, want %v", got, want)
	}
}

func TestBatchesNilError(t *testing.T) {
	if _, err := Batches([]int64{7, 8, 9}, MaxBatchSize); err != nil {
		t.Fatalf("Batches(3 ids, MaxBatchSize) error = %v, want nil", err)
	}
}

func TestBatchesRejectsBadSize(t *testing.T) {
	// No IDs with sizes < 1: an answer without the check must not hang or panic.
	for _, c := range []struct {
		ids  []int64
		size int
	}{{nil, 0}, {nil, -3}, {[]int64{1, 2}, MaxBatchSize + 1}} {
		if got, err := Batches(c.ids, c.size); err == nil || got != nil {
			t.Errorf("Batches(%v, %d) = %v, %v; want nil and an error", c.ids, c.size, got, err)
		}
	}
}

func TestBatchesEmpty(t *testing.T) {
	got, err := Batches(nil, 10)
	if len(got) != 0 || err != nil {
		t.Fatalf("Batches(nil, 10) = %v, %v; want no batches and nil", got, err)
	}
}

func TestSubmit(t *testing.T) {
	ids := make([]int64, 1200)
	for i := range ids {
		ids[i] = int64(i)
	}
	var sizes []int
	send := func(b []int64) error {
		if sizes = append(sizes, len(b)); len(sizes) == 4 {
			return errors.New("quota")
		}
		return nil
	}
	if err := Submit(ids, MaxBatchSize, send); err != nil || !reflect.DeepEqual(sizes, []int{500, 500, 200}) {
		t.Fatalf("Submit = %v, sizes %v; want nil, [500 500 200]", err, sizes)
	}
	sizes = nil
	if err := Submit(ids, 300, send); err == nil || len(sizes) != 4 {
		t.Fatalf("Submit = %v after %d batches, want the 4th batch's error", err, len(sizes))
	}
}
