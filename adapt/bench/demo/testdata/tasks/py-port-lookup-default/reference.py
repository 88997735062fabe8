def get_port(config: dict, name: str, default: int = DEFAULT_PORT) -> int:
    try:
        return int(config[name]["port"])
    except (KeyError, TypeError, ValueError):
        return default
