# protect: prefix_sums
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.prefix_sums, [1, 2, 3, 4], 1)
show(prog.prefix_sums, [1, 2, 3, 4], 2)
show(prog.prefix_sums, [1, 2, 3, 4], 0)
show(prog.prefix_sums, [], 1)
