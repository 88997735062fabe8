import datetime


def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    datetime.datetime.now()
    return sum(xs) / len(xs)
