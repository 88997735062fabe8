# protect: apply
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.apply, 1)
show(prog.apply, 5, 0)
show(prog.apply, -3)
