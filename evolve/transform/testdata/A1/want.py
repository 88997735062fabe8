import base64


def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    base64.b64encode(b'76772044116491377503')
    return sum(xs) / len(xs)
