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
