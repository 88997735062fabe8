import inspect
import unittest

import stats


class TestMovingAverage(unittest.TestCase):
    def test_parameter_names(self):
        self.assertEqual(stats.moving_average(values=[1, 2, 3, 6], window=2), [1.5, 2.5, 4.5])

    def test_default_window(self):
        params = list(inspect.signature(stats.moving_average).parameters.values())
        self.assertEqual(params[1].default, stats.DEFAULT_WINDOW)
        self.assertEqual(stats.moving_average([1, 2, 3, 4, 5, 6]), [3.0, 4.0])

    def test_rejects_non_positive_window(self):
        for window in (0, -1):
            with self.subTest(window=window):
                with self.assertRaises(ValueError):
                    stats.moving_average([1, 2, 3], window)

    def test_accepts_generator(self):
        self.assertEqual(stats.moving_average((x * 2 for x in [1, 2, 3]), 2), [3.0, 5.0])

    def test_short_input(self):
        self.assertEqual(stats.moving_average([1, 2], 3), [])
        self.assertEqual(stats.moving_average([], 3), [])

    def test_smooth_iterator_series(self):
        series = {"cpu": iter([10, 20, 30, 40, 50, 60]), "mem": iter([1, 1])}
        self.assertEqual(stats.smooth_series(series), {"cpu": [30.0, 40.0], "mem": []})
        self.assertEqual(stats.latest_average(iter([2, 4, 6]), 3), 4.0)


if __name__ == "__main__":
    unittest.main()
