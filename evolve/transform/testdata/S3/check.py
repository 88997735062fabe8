# protect: collatz
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

for n in (1, 6, 27):
    show(prog.collatz, n)
show(prog.collatz, "x")
