"""Smoothing helpers for the metrics dashboard."""

DEFAULT_WINDOW = 5


def moving_average(values, window=DEFAULT_WINDOW):
    if window <= 0:
        raise ValueError("window must be positive, got %d" % window)
    values = list(values)
    ret = []
    for i in range(len(values) - window + 1):
        ret.append(sum(values[i:i + window]) / window)
    return ret


def smooth_series(series, window=DEFAULT_WINDOW):
    """Applies moving_average to every named series of a {name: points} dict."""
    return {name: moving_average(points, window=window) for name, points in series.items()}


def latest_average(points, window=DEFAULT_WINDOW):
    averages = moving_average(points, window)
    return averages[-1] if averages else None
