def moving_average(a, n=3):
    ret = []
    for i in range(len(a) - n + 1):
        ret.append(sum(a[i:i + n]) / n)
    return ret
