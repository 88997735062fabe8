import inspect
import re
import unittest
from typing import List

from textutil import camel_case_split


class TestCamelCaseSplit(unittest.TestCase):

    def test_split(self):
        self.assertEqual(camel_case_split("parseHTTPResponse"), ["parse", "HTTP", "Response"])

    def test_single_word(self):
        self.assertEqual(camel_case_split("word"), ["word"])

    def test_type_hints(self):
        self.assertEqual(camel_case_split.__annotations__, {"identifier": str, "return": List[str]})

    def test_module_call(self):
        self.assertTrue(re.search(r"\bre\.finditer\(", inspect.getsource(camel_case_split)))

    def test_docstring_example(self):
        self.assertIn("```", camel_case_split.__doc__)


if __name__ == '__main__':
    unittest.main()
