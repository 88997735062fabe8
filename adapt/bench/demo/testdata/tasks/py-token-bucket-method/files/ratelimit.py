"""Token-bucket rate limiting for outgoing API calls."""

import time


class TokenBucket:
    """Allows rate tokens per second on average, in bursts of up to capacity."""

    def __init__(self, rate, capacity, clock=time.monotonic):
        self.rate = rate
        self.capacity = capacity
        self._clock = clock
        self._tokens = capacity
        self._last = clock()

    def consume(self, tokens=1):
        now = self._clock()
        elapsed = now - self._last
        self._tokens = min(self.capacity, self._tokens + elapsed * self.rate)
        self._last = now
        if self._tokens >= tokens:
            self._tokens -= tokens
            return True
        return False

    def wait_time(self, tokens=1):
        """Seconds until consume(tokens) can succeed."""
        if self.consume(tokens):
            self._tokens += tokens  # only peeking: give the tokens back
            return 0.0
        return (tokens - self._tokens) / self.rate
