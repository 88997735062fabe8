def make_event(name, data={}):
    return {
        "name": name,
        "version": 1,
        "data": data,
        "ts": datetime.datetime.utcnow().isoformat(),
    }
