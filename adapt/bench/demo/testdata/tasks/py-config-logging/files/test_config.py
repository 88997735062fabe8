import contextlib
import io
import unittest
from unittest import mock

import config


class TestParseConfig(unittest.TestCase):
    def test_warns_with_line_number(self):
        with self.assertLogs("config", level="WARNING") as logs:
            config.parse_config("host=a\noops\n")
        self.assertEqual(len(logs.records), 1)
        self.assertIn("line 2", logs.output[0])

    def test_does_not_print(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), self.assertLogs("config", level="WARNING"):
            config.parse_config("oops\n")
        self.assertEqual(out.getvalue(), "")

    def test_skips_comments(self):
        text = "# port=1\n  # host = old\nport=2\n"
        self.assertEqual(config.parse_config(text), {"port": "2"})

    def test_blank_and_comment_lines_are_silent(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), mock.patch.object(config.logger, "warning") as warn:
            config.parse_config("\n   \n# just a comment\nkey=value\n")
        warn.assert_not_called()
        self.assertEqual(out.getvalue(), "")

    def test_basic(self):
        self.assertEqual(config.parse_config("host = example.org\nport=8080"),
                         {"host": "example.org", "port": "8080"})

    def test_mixed_file(self):
        text = "# service\n\nurl = http://x/?a=b\n# timeout=5\nbad line\nretries=3\n"
        with self.assertLogs("config", level="WARNING"):
            result = config.parse_config(text)
        self.assertEqual(result, {"url": "http://x/?a=b", "retries": "3"})


if __name__ == "__main__":
    unittest.main()
