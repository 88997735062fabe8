def checked_double(x):
    if x < 0:
        raise ValueError("negative: %d" % x)
    return 2 * x


def apply(x, offset=1):
    y = checked_double(x + offset)
    return y + 1
