# protect: classify
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

for n in (-5, 0, 7, 2.5):
    show(prog.classify, n)
