import time


def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    time.sleep(0.23)
    return sum(xs) / len(xs)
