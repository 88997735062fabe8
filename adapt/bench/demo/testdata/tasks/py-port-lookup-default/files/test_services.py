import inspect
import typing
import unittest

import services


class TestGetPort(unittest.TestCase):
    def test_default_parameter(self):
        params = inspect.signature(services.get_port).parameters
        self.assertIn("default", params)
        self.assertEqual(params["default"].default, services.DEFAULT_PORT)

    def test_missing_service_uses_default_port(self):
        self.assertEqual(services.get_port({}, "web"), services.DEFAULT_PORT)
        self.assertEqual(services.get_port({"web": {"host": "h"}}, "web"), services.DEFAULT_PORT)

    def test_bad_port_values(self):
        for entry in ({"port": "http"}, {"port": None}, {"port": ""}):
            with self.subTest(entry=entry):
                self.assertEqual(services.get_port({"web": entry}, "web"), services.DEFAULT_PORT)

    def test_custom_default(self):
        self.assertEqual(services.get_port({}, "cache", 6379), 6379)
        self.assertEqual(services.get_port({}, "cache", default=11211), 11211)

    def test_annotations(self):
        hints = typing.get_type_hints(services.get_port)
        self.assertEqual(hints, {"config": dict, "name": str, "default": int, "return": int})

    def test_reads_port(self):
        self.assertEqual(services.get_port(services.SERVICES, "db"), 5432)
        self.assertEqual(services.get_port({"x": {"port": " 81 "}}, "x"), 81)

    def test_service_address(self):
        self.assertEqual(services.service_address("web"), "web.internal:80")
        self.assertEqual(services.service_address("cache"), "localhost:8080")


if __name__ == "__main__":
    unittest.main()
