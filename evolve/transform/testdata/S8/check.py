# protect: Temperature
import prog
def show(fn, *args):
    try:
        print(repr(fn(*args)))
    except Exception as e:
        print(type(e).__name__, e)

show(prog.Temperature.to_fahrenheit, 100)
show(prog.Temperature().to_fahrenheit, -40)
show(prog.Temperature.zero)
