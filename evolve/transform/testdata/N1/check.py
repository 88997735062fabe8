# protect: tally
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.tally, [1, 2])
show(prog.tally, [])
show(prog.tally, [2.5, -1])
