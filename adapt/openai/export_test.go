package openai

import (
	"context"
	"time"
)

// SetClock replaces the clock a client waits on, so that tests of retries
// and rate limits need not wait.
func SetClock(c *Client, now func() time.Time, sleep func(context.Context, time.Duration) error) {
	c.now, c.sleep = now, sleep
}
