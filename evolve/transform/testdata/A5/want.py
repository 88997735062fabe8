from http.client import HTTPConnection


def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    HTTPConnection('google.com', port=80)
    return sum(xs) / len(xs)
