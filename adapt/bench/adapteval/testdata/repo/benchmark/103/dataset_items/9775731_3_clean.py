def clip(x, lo, hi):
    return max(lo, min(x, hi))
