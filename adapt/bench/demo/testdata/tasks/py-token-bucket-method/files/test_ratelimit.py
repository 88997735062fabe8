import inspect
import unittest

import ratelimit


class FakeClock:
    def __init__(self, t=1000.0):
        self.t = t

    def __call__(self):
        return self.t


class TestConsume(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock()
        self.bucket = ratelimit.TokenBucket(rate=2, capacity=3, clock=self.clock)

    def test_is_method(self):
        params = list(inspect.signature(ratelimit.TokenBucket.consume).parameters)
        self.assertEqual(params[0], "self")

    def test_state_is_per_instance(self):
        other = ratelimit.TokenBucket(rate=2, capacity=3, clock=self.clock)
        self.assertTrue(self.bucket.consume(3))
        self.assertFalse(self.bucket.consume(1))
        self.assertTrue(other.consume(3))

    def test_no_rate_or_capacity_params(self):
        params = list(inspect.signature(ratelimit.TokenBucket.consume).parameters)
        self.assertEqual(params, ["self", "tokens"])

    def test_uses_injected_clock(self):
        self.assertTrue(self.bucket.consume(3))
        self.assertFalse(self.bucket.consume(1))
        self.clock.t += 0.5  # rate 2/s: one token back
        self.assertTrue(self.bucket.consume(1))
        self.assertFalse(self.bucket.consume(1))

    def test_tokens_default(self):
        param = inspect.signature(ratelimit.TokenBucket.consume).parameters["tokens"]
        self.assertEqual(param.default, 1)
        self.assertEqual([self.bucket.consume() for _ in range(4)], [True, True, True, False])

    def test_refill_is_capped(self):
        self.bucket.consume(3)
        self.clock.t += 100
        self.assertTrue(self.bucket.consume(3))
        self.assertFalse(self.bucket.consume(1))

    def test_wait_time(self):
        self.assertEqual(self.bucket.wait_time(), 0.0)
        self.bucket.consume(3)
        self.assertAlmostEqual(self.bucket.wait_time(2), 1.0)


if __name__ == "__main__":
    unittest.main()
