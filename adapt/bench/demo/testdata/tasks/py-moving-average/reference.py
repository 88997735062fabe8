def moving_average(values, window=DEFAULT_WINDOW):
    if window <= 0:
        raise ValueError("window must be positive, got %d" % window)
    values = list(values)
    ret = []
    for i in range(len(values) - window + 1):
        ret.append(sum(values[i:i + window]) / window)
    return ret
