def make_event(name, data=None):
    if data is None:
        data = {}
    return {
        "name": name,
        "version": EVENT_VERSION,
        "data": data,
        "ts": datetime.datetime.now(datetime.timezone.utc).isoformat(),
    }
