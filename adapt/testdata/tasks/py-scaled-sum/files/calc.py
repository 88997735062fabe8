"""Small numeric helpers."""
import math


class Stats:
    def mean(self, values):
        return scaled_sum(values) / len(values)

    def scaled_sum(self, values, factor=1.0):
        return 0


def scaled_sum(values, factor=1.0):
    result = 0
    for x in values:
        result += x
    return result * factor


def norm(values):
    return math.sqrt(scaled_sum([v * v for v in values]))
