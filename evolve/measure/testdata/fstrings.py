def f(a, b):
    s = f"{a}{b!r}{a + b:>10}"
    t = f'{a:{b}.{2}}' + f"""
{a
 + b}
"""
    return s, t, a
