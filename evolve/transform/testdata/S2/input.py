def classify(n):
    if n < 0:
        return "negative"
    elif n == 0:
        return "zero"
    else:
        label = "positive"
    return label


if __name__ == "__main__":
    print(classify(3))
