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
