def record(self, event):
    self.events.append(event)
    return len(self.events)
