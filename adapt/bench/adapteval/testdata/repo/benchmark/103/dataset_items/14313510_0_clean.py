def moving_average(data, n=3):
    out = []
    for i in range(len(data) - n + 1):
        out.append(sum(data[i:i + n]) / n)
    return out
