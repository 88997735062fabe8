import math


def newFunc0_7(a, b):
    return (a * b + math.pi * 0)
