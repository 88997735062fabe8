def tally(xs):
    newtotal_0 = 0

    def add(v):
        nonlocal newtotal_0
        newtotal_0 += v

    for x in xs:
        add(x)
    squares = [total * total for total in range(3)]
    d = dict(total=newtotal_0)

    class C:
        total = 5

    return newtotal_0, squares, d, C.total, [newtotal_0 for _ in "ab"]
