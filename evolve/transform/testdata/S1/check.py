# protect: total
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.total, [])
show(prog.total, [1, 2, 3])
show(prog.total, [1, None, 3])
show(prog.total, ["a"])
