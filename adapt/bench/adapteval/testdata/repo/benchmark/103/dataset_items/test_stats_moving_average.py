import inspect
import unittest

from stats import moving_average


class TestMovingAverage(unittest.TestCase):

    def test_window(self):
        self.assertEqual(moving_average([1, 2, 3, 4], 2), [1.5, 2.5, 3.5])

    def test_keeps_decorator(self):
        self.assertTrue(getattr(moving_average, "checked", False))

    def test_annotations(self):
        self.assertEqual(moving_average.__annotations__, {"values": list[float], "window": int, "return": list[float]})

    def test_parameter_names(self):
        self.assertEqual(list(inspect.signature(moving_average).parameters), ["values", "window"])


if __name__ == '__main__':
    unittest.main()
