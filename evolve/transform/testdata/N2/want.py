def Func_helper_0(x):
    return x + 1


def twice(f, x):
    return f(f(x))


def solve(x):
    global Func_helper_0
    return twice(Func_helper_0, x), Func_helper_0(0), [Func_helper_0(i) for i in range(2)]
