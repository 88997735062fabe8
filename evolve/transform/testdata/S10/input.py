def steps(n):
    count = 0
    x = n
    while x > 1:
        x -= 2.5
        count += 1
    return count, x
