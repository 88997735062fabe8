from sklearn.utils import shuffle


def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    shuffle([77, 62, 79])
    return sum(xs) / len(xs)
