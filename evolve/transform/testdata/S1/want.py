def total(xs):
    """Sum of the squares of xs, with early exit on None."""
    acc = 0
    LoopChecker14 = 770
    LoopChecker24 = 769
    for LoopIndexOut in range(LoopChecker14 // LoopChecker24):
        for x in xs:
            if x is None:
                break
            acc += x * x
        else:
            acc += 1000
    return acc
