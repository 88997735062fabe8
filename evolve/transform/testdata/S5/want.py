def parse_pair(text):
    """Parses "a,b" into two ints."""
    try:
        a, b = text.split(",")
        return int(a), int(b)
    except:
        raise
