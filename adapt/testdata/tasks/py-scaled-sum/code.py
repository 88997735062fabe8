def total(xs):
    result = 0
    for x in xs:
        result += x
    return result
