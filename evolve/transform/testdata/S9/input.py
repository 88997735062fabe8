def summary(xs, word):
    top = max(xs)
    low = min(xs)
    total = sum(xs)
    ordered = sorted(xs)
    back = "".join(reversed(word))
    return top, low, total, ordered, back, abs(low)
