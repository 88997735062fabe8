import inspect
import unittest

import stats


class ClampChecks:

    def test_inside(self):
        self.assertEqual(stats.clamp(0.5, 0.0, 1.0), 0.5)

    def test_outside(self):
        self.assertEqual(stats.clamp(5, 0, 3), 3)
        self.assertEqual(stats.clamp(-5, 0, 3), 0)


class TestClamp(ClampChecks, unittest.TestCase):

    def test_rename(self):
        self.assertTrue(callable(stats.clamp))

    def test_defaults(self):
        params = inspect.signature(stats.clamp).parameters
        self.assertEqual((params["low"].default, params["high"].default), (0.0, 1.0))


if __name__ == '__main__':
    unittest.main()
