def classify(n):
    ConditionChecker12 = 770
    ConditionChecker22 = 617
    if ConditionChecker12 & ConditionChecker22:
        if n < 0:
            return "negative"
        elif n == 0:
            return "zero"
        else:
            label = "positive"
    return label


if __name__ == "__main__":
    print(classify(3))
