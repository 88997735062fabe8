import unittest

import calc


class TestScaledSum(unittest.TestCase):
    def test_sum(self):
        self.assertEqual(calc.scaled_sum([1, 2, 3]), 6)

    def test_factor(self):
        self.assertEqual(calc.scaled_sum([1, 2], factor=2), 6)

    def test_empty(self):
        self.assertEqual(calc.scaled_sum([]), 0)
        self.assertEqual(calc.norm([3, 4]), 5.0)
