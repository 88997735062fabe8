import os
import unittest
from unittest import mock

import settings


def env(**values):
    """Patches os.environ with values; a value of None removes the variable."""
    patcher = mock.patch.dict(os.environ, {k: v for k, v in values.items() if v is not None})
    patcher.start()
    for k, v in values.items():
        if v is None:
            os.environ.pop(k, None)
    return patcher


class TestEnvFlag(unittest.TestCase):
    def use_env(self, **values):
        self.addCleanup(env(**values).stop)

    def test_function_name(self):
        self.assertTrue(callable(getattr(settings, "env_flag", None)))

    def test_reads_environment(self):
        self.use_env(DEMO_FLAG=" Yes ", OTHER_FLAG="1")
        self.assertIs(settings.env_flag("DEMO_FLAG"), True)
        self.assertIs(settings.env_flag("OTHER_FLAG"), True)

    def test_default_when_unset(self):
        self.use_env(DEMO_UNSET=None, DEMO_EMPTY="  ")
        self.assertIs(settings.env_flag("DEMO_UNSET"), False)
        self.assertIs(settings.env_flag("DEMO_UNSET", default=True), True)
        self.assertIs(settings.env_flag("DEMO_EMPTY", True), True)

    def test_rejects_unknown_values(self):
        self.use_env(DEMO_FLAG="maybe", DEMO_T="t")
        with self.assertRaisesRegex(ValueError, "DEMO_FLAG"):
            settings.env_flag("DEMO_FLAG")
        with self.assertRaises(ValueError):
            settings.env_flag("DEMO_T", default=True)

    def test_false_values(self):
        self.use_env(A="off", B="NO", C="0")
        self.assertEqual([settings.env_flag(n, default=True) for n in "ABC"], [False] * 3)

    def test_feature_helpers(self):
        self.use_env(APP_DEBUG="on", APP_TELEMETRY=None)
        self.assertIs(settings.debug_enabled(), True)
        self.assertIs(settings.telemetry_enabled(), True)


if __name__ == "__main__":
    unittest.main()
