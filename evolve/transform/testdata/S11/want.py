def prefix_sums(xs, step):
    sums = []
    running = 0
    def loop_4_4(loop_range, loop_index):
        nonlocal running
        if loop_index >= len(loop_range):
            return
        i = loop_range[loop_index]
        running += xs[i]
        sums.append(running)
        loop_4_4(loop_range, loop_index + 1)
    loop_4_4(range(0, len(xs), step), 0)
    return sums, running
