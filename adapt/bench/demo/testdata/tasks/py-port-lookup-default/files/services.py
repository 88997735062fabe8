"""Look up service endpoints in the parsed services registry."""

DEFAULT_HOST = "localhost"
DEFAULT_PORT = 8080

SERVICES = {
    "web": {"host": "web.internal", "port": "80"},
    "db": {"host": "db.internal", "port": "5432"},
}


def get_port(config: dict, name: str, default: int = DEFAULT_PORT) -> int:
    try:
        return int(config[name]["port"])
    except (KeyError, TypeError, ValueError):
        return default


def get_host(config: dict, name: str) -> str:
    return config.get(name, {}).get("host", DEFAULT_HOST)


def service_address(name: str, config: dict = SERVICES) -> str:
    return f"{get_host(config, name)}:{get_port(config, name)}"
