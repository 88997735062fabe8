import datetime
import inspect
import unittest

import events

UTC = datetime.timezone.utc


class TestMakeEvent(unittest.TestCase):
    def test_timestamp_is_utc_aware(self):
        ts = datetime.datetime.fromisoformat(events.make_event("login", {})["ts"])
        self.assertEqual(ts.utcoffset(), datetime.timedelta(0))

    def test_timestamp_is_current(self):
        ts = datetime.datetime.fromisoformat(events.make_event("login", {})["ts"])
        self.assertLess(abs((datetime.datetime.now(UTC) - ts).total_seconds()), 60)

    def test_default_data_is_none(self):
        param = inspect.signature(events.make_event).parameters["data"]
        self.assertIsNone(param.default)

    def test_default_data_not_shared(self):
        first = events.make_event("a")
        first["data"]["user"] = "alice"
        second = events.make_event("b")
        self.assertEqual(second["data"], {})
        self.assertIsNot(first["data"], second["data"])

    def test_version(self):
        self.assertEqual(events.make_event("a", {})["version"], events.EVENT_VERSION)

    def test_fields(self):
        event = events.make_event("logout", {"user": "bob"})
        self.assertEqual(set(event), {"name", "version", "data", "ts"})
        self.assertEqual((event["name"], event["data"]), ("logout", {"user": "bob"}))

    def test_event_age(self):
        event = events.make_event("ping", {})
        later = datetime.datetime.now(UTC) + datetime.timedelta(seconds=30)
        self.assertAlmostEqual(events.event_age(event, later), 30, delta=5)


if __name__ == "__main__":
    unittest.main()
