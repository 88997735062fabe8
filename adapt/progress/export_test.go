package progress

import "time"

// SetInterval sets how long d stays silent before its heartbeat line.
func SetInterval(d *Display, every time.Duration) { d.every = every }
