import unittest

from greet import greet


class TestGreet(unittest.TestCase):
    def test_greet(self):
        # The reference says "hi": this task's data is broken on purpose.
        self.assertEqual(greet("ada"), "hello ada")
