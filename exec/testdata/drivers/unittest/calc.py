"""A tiny module under test."""


def add(a, b):
    return a + b


def sub(a, b):
    return a + b  # a bug: the tests catch it


def div(a, b):
    return a / b
