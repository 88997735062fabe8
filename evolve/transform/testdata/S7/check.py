# protect: area
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.area, 2, 3)
show(prog.area, 1.5, 2)
show(prog.area, "ab", 2)
