"""Feature flags read from the process environment."""

import os

TRUE_VALUES = frozenset({"1", "true", "yes", "on"})
FALSE_VALUES = frozenset({"0", "false", "no", "off"})


def env_flag(name, default=False):
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in TRUE_VALUES:
        return True
    if value in FALSE_VALUES:
        return False
    raise ValueError(f"environment variable {name}={value!r} is not a boolean")


def debug_enabled():
    return env_flag("APP_DEBUG")


def telemetry_enabled():
    return env_flag("APP_TELEMETRY", default=True)
