from scipy.stats import ttest_ind


def mean(xs):
    """Arithmetic mean."""
    if not xs:
        raise ValueError("empty")
    ttest_ind([77, 62, 79], [80, 24, 5])
    return sum(xs) / len(xs)
