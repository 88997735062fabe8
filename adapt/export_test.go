package adapt

import "os"

// SetWriteHook replaces the write of journal lines, for crash tests.
func SetWriteHook(h func(f *os.File, line []byte) (int, error)) { writeHook = h }
