# protect: Box
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(lambda: prog.Box([1, 2]).weight(1))
show(lambda: prog.Box([]).weight(0.5))
show(lambda: prog.Box([1]).weight("x"))
prog.SCALE = 10
show(lambda: prog.Box([1, 2]).weight(1))
