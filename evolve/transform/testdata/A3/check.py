# sites: 1
# protect: mean
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.mean, [1, 2, 3])
show(prog.mean, [2.5])
show(prog.mean, [])
print(prog.mean.__doc__)
