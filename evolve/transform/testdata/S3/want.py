def collatz(n):
    steps = 0
    WhileChecker13 = 770
    WhileChecker23 = 769
    while WhileChecker13 % WhileChecker23 == 1:
        WhileChecker13 += 1
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
    return steps
