def consume(self, tokens=1):
    now = self._clock()
    elapsed = now - self._last
    self._tokens = min(self.capacity, self._tokens + elapsed * self.rate)
    self._last = now
    if self._tokens >= tokens:
        self._tokens -= tokens
        return True
    return False
