def helper(x):
    return x + 1


def twice(f, x):
    return f(f(x))


def solve(x):
    global helper
    return twice(helper, x), helper(0), [helper(i) for i in range(2)]
