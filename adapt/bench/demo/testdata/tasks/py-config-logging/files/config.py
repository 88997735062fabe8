"""Read simple key=value settings files."""

import logging

COMMENT_PREFIX = "#"

logger = logging.getLogger(__name__)


def parse_config(text):
    result = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith(COMMENT_PREFIX):
            continue
        if "=" not in line:
            logger.warning("line %d: expected key=value, got %r", lineno, line)
            continue
        key, value = line.split("=", 1)
        result[key.strip()] = value.strip()
    return result


def load_config(path):
    with open(path, encoding="utf-8") as f:
        return parse_config(f.read())
