import unittest
from unittest import mock

from fetch import fetch_json


class TestFetchJson(unittest.TestCase):

    def test_rename(self):
        self.assertTrue(callable(fetch_json))

    def test_timeout(self):
        with mock.patch("fetch.nonexistent_pkg_xyz.get") as get:
            get.return_value.text = "{}"
            fetch_json("http://example.invalid")
        self.assertEqual(get.call_args.kwargs["timeout"], 10)

    def test_parses(self):
        with mock.patch("fetch.nonexistent_pkg_xyz.get") as get:
            get.return_value.text = '{"a": 1}'
            self.assertEqual(fetch_json("http://example.invalid"), {"a": 1})


if __name__ == '__main__':
    unittest.main()
