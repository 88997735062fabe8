def parse_pair(text):
    """Parses "a,b" into two ints."""
    a, b = text.split(",")
    return int(a), int(b)
