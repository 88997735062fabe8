from dateutil.parser import parse


def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    parse('2023-08-22 19:14:02')
    return sum(xs) / len(xs)
