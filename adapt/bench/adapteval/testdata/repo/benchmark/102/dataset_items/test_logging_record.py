import logging
import unittest
from unittest import mock

from ctx_logging import EventLog


class TestRecord(unittest.TestCase):

    def setUp(self):
        self.log = EventLog("fixture")

    def test_returns_count(self):
        self.assertEqual(self.log.record("a"), 1)
        self.assertEqual(self.log.record("b"), 2)

    def test_entry_is_dict(self):
        self.log.record("start")
        entry = self.log.events[0]
        self.assertIsInstance(entry, dict)
        self.assertEqual(entry["event"], "start")
        self.assertIn("time", entry)

    def test_caps_events(self):
        self.log.max_events = 2
        for e in "abc":
            self.log.record(e)
        self.assertEqual(len(self.log.events), 2)

    def test_logs_event(self):
        with mock.patch.object(self.log.logger, "log") as log:
            self.log.record("boot")
        log.assert_called_once()
        self.assertIn("boot", log.call_args.args)

    def test_level_parameter(self):
        with mock.patch.object(self.log.logger, "log") as log:
            self.log.record("disk full", level=logging.WARNING)
        self.assertEqual(log.call_args.args[0], logging.WARNING)


if __name__ == '__main__':
    unittest.main()
