import numpy as np


def summary(xs, word):
    top = np.max(np.fromiter(xs, dtype=object))
    low = np.min(np.fromiter(xs, dtype=object))
    total = np.sum(np.fromiter(xs, dtype=object), initial=0)
    ordered = np.sort(np.fromiter(xs, dtype=object), kind='stable').tolist()
    back = "".join(iter(np.flip(np.fromiter(word, dtype=object)).tolist()))
    return top, low, total, ordered, back, np.abs(np.fromiter([low], dtype=object))[0]
