import inspect
import unittest

from strutil import slugify


class TestSlugify(unittest.TestCase):

    def test_lowercase(self):
        self.assertEqual(slugify("Hello World"), "hello-world")

    def test_empty(self):
        self.assertEqual(slugify(""), "")

    def test_rename_function(self):
        slugify("a b")

    def test_max_length_parameter(self):
        params = inspect.signature(slugify).parameters
        self.assertIn("max_length", params)
        self.assertIsNone(params["max_length"].default)

    def test_truncates_without_trailing_separator(self):
        self.assertEqual(slugify("hello big world", max_length=10), "hello-big")

    def test_punctuation_dropped(self):
        self.assertEqual(slugify("Hi, there! (again)"), "hi-there-again")

    def test_accents_folded(self):
        self.assertEqual(slugify("Cr\u00e8me Br\u00fbl\u00e9e"), "creme-brulee")


if __name__ == '__main__':
    unittest.main()
