def prefix_sums(xs, step):
    sums = []
    running = 0
    for i in range(0, len(xs), step):
        running += xs[i]
        sums.append(running)
    return sums, running
