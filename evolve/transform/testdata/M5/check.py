# protect: grade
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.grade, 85, 5)
show(prog.grade, 60, 0)
show(prog.grade, 10, 1)
show(prog.grade, 40, 3)
