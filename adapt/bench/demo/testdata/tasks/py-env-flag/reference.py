def env_flag(name, default=False):
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in TRUE_VALUES:
        return True
    if value in FALSE_VALUES:
        return False
    raise ValueError(f"environment variable {name}={value!r} is not a boolean")
