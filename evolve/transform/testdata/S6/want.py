SCALE = 3


def newFunc0_9(self, extra):
    return (len(self.items) * SCALE + extra)


class Box:
    def __init__(self, items):
        self.items = items

    def weight(self, extra):
        w = newFunc0_9(self, extra)
        return w
