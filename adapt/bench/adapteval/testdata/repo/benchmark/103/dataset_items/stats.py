import functools


def checked(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    wrapper.checked = True
    return wrapper


@checked
def moving_average(values: list[float], window: int = 3) -> list[float]:
    averages = []
    for i in range(len(values) - window + 1):
        averages.append(sum(values[i:i + window]) / window)
    return averages


def clamp(value, low=0.0, high=1.0):
    return max(low, min(value, high))
