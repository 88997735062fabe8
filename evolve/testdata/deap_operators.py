#!/usr/bin/python3
"""Runs DEAP's bounded SBX and polynomial mutation on given inputs with a
given sequence of random numbers, to check that package nsga2's operators
compute what DEAP's do.

Reads one JSON array of cases from stdin. Each case is

    {"op": "sbx", "a": [...], "b": [...], "eta": 20, "low": [...],
     "up": [...], "randoms": [...]}
or
    {"op": "mut", "x": [...], "eta": 20, "prob": 0.1, "low": [...],
     "up": [...], "randoms": [...]}

and DEAP's cxSimulatedBinaryBounded or mutPolynomialBounded draws its
random.random() values from "randoms", in order. Prints one JSON array with,
per case, {"a": [...], "b": [...]} or {"x": [...]} and "used", the number of
random numbers drawn.
"""

import json
import sys

from deap.tools import crossover, mutation


class Feed:
    def __init__(self, values):
        self.values = values
        self.used = 0

    def random(self):
        v = self.values[self.used]
        self.used += 1
        return v


def main():
    out = []
    for case in json.load(sys.stdin):
        feed = Feed(case["randoms"])
        if case["op"] == "sbx":
            crossover.random = feed
            a, b = list(case["a"]), list(case["b"])
            crossover.cxSimulatedBinaryBounded(a, b, case["eta"], case["low"], case["up"])
            out.append({"a": a, "b": b, "used": feed.used})
        elif case["op"] == "mut":
            mutation.random = feed
            x = list(case["x"])
            mutation.mutPolynomialBounded(x, case["eta"], case["low"], case["up"], case["prob"])
            out.append({"x": x, "used": feed.used})
        else:
            raise ValueError("unknown op %r" % case["op"])
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
