# protect: solve twice
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.solve, 1)
show(prog.solve, 10)
show(prog.solve, "a")
