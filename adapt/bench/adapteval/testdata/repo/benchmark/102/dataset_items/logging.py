import logging
import time


class EventLog:
    max_events = 100

    def __init__(self, name):
        self.name = name
        self.events = []
        self.logger = logging.getLogger(name)

    def record(self, event, level=logging.INFO):
        entry = {"event": event, "time": time.time()}
        self.events.append(entry)
        if len(self.events) > self.max_events:
            self.events.pop(0)
        self.logger.log(level, "%s", event)
        return len(self.events)

    def clear(self):
        self.events = []
