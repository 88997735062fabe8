def tally(xs):
    total = 0

    def add(v):
        nonlocal total
        total += v

    for x in xs:
        add(x)
    squares = [total * total for total in range(3)]
    d = dict(total=total)

    class C:
        total = 5

    return total, squares, d, C.total, [total for _ in "ab"]
