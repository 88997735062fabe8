def grade(score, bonus):
    total = score + bonus * 2
    if total >= 90 or bonus > 0:
        return "A"
    if not total < 50:
        return "B"
    return total

