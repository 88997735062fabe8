def scaled_sum(values, factor=1.0):
    result = 0
    for x in values:
        result += x
    return result * factor
