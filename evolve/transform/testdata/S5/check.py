# protect: parse_pair
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.parse_pair, "1,2")
show(prog.parse_pair, "1;2")
show(prog.parse_pair, "x,2")
print(prog.parse_pair.__doc__)
