# sites: 0 0 0 0
# protect: defaults
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.defaults)
show(lambda: prog.defaults()[0] * 2)
show(lambda: type(prog.defaults()[1]).__name__)
