def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    return sum(xs) / len(xs)
