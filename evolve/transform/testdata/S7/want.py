import math


from newClass76938 import newFunc0_7


def area(w, h):
    return newFunc0_7(w, h)
