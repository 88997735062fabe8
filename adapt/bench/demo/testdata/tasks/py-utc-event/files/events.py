"""Build the event records sent to the audit log."""

import datetime

EVENT_VERSION = 2


def make_event(name, data=None):
    if data is None:
        data = {}
    return {
        "name": name,
        "version": EVENT_VERSION,
        "data": data,
        "ts": datetime.datetime.now(datetime.timezone.utc).isoformat(),
    }


def event_age(event, now):
    """Seconds between the event's timestamp and now (an aware datetime)."""
    ts = datetime.datetime.fromisoformat(event["ts"])
    return (now - ts).total_seconds()
