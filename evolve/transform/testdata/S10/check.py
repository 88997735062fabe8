# sites: 0 0
# protect: steps
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

for n in (0, 3, 10, 7.5):
    show(prog.steps, n)
