package openai

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
)

// APIError is an HTTP error response from the server.
type APIError struct {
	// StatusCode is the HTTP status, such as 429.
	StatusCode int
	// Message is the server's error message, or the start of the body.
	Message string
	// RetryAfter is how long the server asked to wait before retrying
	// (Retry-After or retry-after-ms); 0 when it did not say.
	RetryAfter time.Duration
	// URL is the request URL, without any user info.
	URL string
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("openai: POST %s: %d %s", e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap makes a 401, 403 or 404 (a key or a model the server does not
// take) match adapt.ErrModelUnavailable: no retry fixes it.
func (e *APIError) Unwrap() error {
	switch e.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return adapt.ErrModelUnavailable
	}
	return nil
}

// retryable reports whether the request may succeed if sent again: on 408,
// 409, 429 and 5xx.
func (e *APIError) retryable() bool {
	switch e.StatusCode {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return e.StatusCode >= 500
}

// retryAfter reads retry-after-ms (OpenAI's) or Retry-After, in seconds or
// as an HTTP date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && ms > 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 && s < 1e9 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// redacted is an error whose message has the API key cut out; it unwraps to
// the original so that errors.Is and errors.As still work.
type redacted struct {
	msg string
	err error
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.err }

func redact(err error, secret string) error {
	if err == nil || secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	return &redacted{strings.ReplaceAll(err.Error(), secret, "[redacted]"), err}
}
