# sites: 0 0 0 0 0 0
# protect: summary
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__)  # numpy words its errors differently

show(prog.summary, [3, -1, 2], "abc")
show(prog.summary, [2.5, 1, True], "x")
show(prog.summary, [[2, 1], [1, 5]], "")
show(prog.summary, [], "a")
