package jobkit

const (
	// FirstUID is the first uid of the block.
	FirstUID = 1879048192
	// UIDCount is how many uids the block holds.
	UIDCount = 65536
)
