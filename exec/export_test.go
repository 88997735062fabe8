package exec

// SetShareDir makes the Java drivers keep their class-data sharing
// archives in dir until restore is called.
func SetShareDir(dir string) (restore func()) {
	old := shareDir
	shareDir = func() string { return dir }
	return func() { shareDir = old }
}

// The errors of ReadWorkspaceFile.
var (
	ErrUnsafeFile   = errUnsafeFile
	ErrFileTooLarge = errFileTooLarge
)
