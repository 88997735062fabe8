# context: class=Grid
def count(self, rows):
    global seen
    n = 0
    for i, row in enumerate(rows):
        n += sum([i for i in row if i])
        seen = i
    def inner(n=n):
        nonlocal rows
        rows = n
        return n
    try:
        n = inner(n=n)
    except KeyError as err:
        n = err
    return [n for n in rows]
