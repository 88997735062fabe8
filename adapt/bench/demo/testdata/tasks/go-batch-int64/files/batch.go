// Package batch splits work into batches for the bulk records API.
package batch

import "fmt"

// MaxBatchSize is the largest batch the bulk API accepts.
const MaxBatchSize = 500

// Batches splits ids into consecutive batches of size IDs (the last one
// may be shorter).
func Batches(ids []int64, size int) ([][]int64, error) {
	if size < 1 || size > MaxBatchSize {
		return nil, fmt.Errorf("batch size %d out of range 1-%d", size, MaxBatchSize)
	}
	var batches [][]int64
	for i := 0; i < len(ids); i += size {
		end := i + size
		if end > len(ids) {
			end = len(ids)
		}
		batches = append(batches, ids[i:end])
	}
	return batches, nil
}

// Submit sends ids in batches of size, in order, stopping at the first error.
func Submit(ids []int64, size int, send func(batch []int64) error) error {
	batches, err := Batches(ids, size)
	if err != nil {
		return err
	}
	for n, b := range batches {
		if err := send(b); err != nil {
			return fmt.Errorf("batch %d of %d: %w", n+1, len(batches), err)
		}
	}
	return nil
}
