#!/usr/bin/python3
"""DEAP's NSGA-II example (examples/ga/nsga2.py of DEAP 1.3), as a baseline.

Debian's python3-deap does not ship DEAP's examples; this is the upstream
example's configuration and loop. Over seeds 1-30 it gives the final
hypervolumes 120.6533 (sd 0.0016), 120.3096 (0.0056) and 128.7669 (0.0022)
on ZDT1, ZDT2 and ZDT3.

Runs the example's configuration on ZDT1, ZDT2 or ZDT3 for one or more seeds
and prints one JSON object on stdout:

    {"deap_version": "1.3", "problem": "zdt1", "population": 100,
     "generations": 250, "variables": 30,
     "runs": [{"seed": 1, "seconds": 2.41, "cpu_seconds": 2.40, "hypervolume": 120.6531,
               "front": [[f1, f2], ...]}, ...]}

"generations" counts the initial population as generation 0, as the example
does (NGEN = 250 runs 249 rounds of variation). "seconds" is the wall time of
one run (initialisation to final selection, excluding interpreter start-up and
the final hypervolume), "cpu_seconds" the CPU time this process used in it
(which other work on the machine changes far less); "front" is the final population's first
non-dominated front; "hypervolume" is deap.benchmarks.tools.hypervolume of the
final population with reference point (11, 11), as the example prints it.

The loop is the example's, without its per-generation statistics and logbook
printing (which only cost DEAP time). Needs Debian's python3-deap:

    /usr/bin/python3 deap_nsga2.py --problem zdt1 --seeds 1-30 --generations 250
"""

import argparse
import array
import json
import random
import sys
import time

import deap
from deap import base, benchmarks, creator, tools
from deap.benchmarks.tools import hypervolume

PROBLEMS = {"zdt1": benchmarks.zdt1, "zdt2": benchmarks.zdt2, "zdt3": benchmarks.zdt3}

creator.create("FitnessMin", base.Fitness, weights=(-1.0, -1.0))
creator.create("Individual", array.array, typecode="d", fitness=creator.FitnessMin)


def make_toolbox(problem, ndim, low, up):
    toolbox = base.Toolbox()

    def uniform(low, up, size):
        return [random.uniform(a, b) for a, b in zip([low] * size, [up] * size)]

    toolbox.register("attr_float", uniform, low, up, ndim)
    toolbox.register("individual", tools.initIterate, creator.Individual, toolbox.attr_float)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", PROBLEMS[problem])
    toolbox.register("mate", tools.cxSimulatedBinaryBounded, low=low, up=up, eta=20.0)
    toolbox.register("mutate", tools.mutPolynomialBounded, low=low, up=up, eta=20.0, indpb=1.0 / ndim)
    toolbox.register("select", tools.selNSGA2)
    return toolbox


def run(toolbox, seed, ngen, mu, cxpb):
    random.seed(seed)

    pop = toolbox.population(n=mu)
    invalid_ind = [ind for ind in pop if not ind.fitness.valid]
    fitnesses = toolbox.map(toolbox.evaluate, invalid_ind)
    for ind, fit in zip(invalid_ind, fitnesses):
        ind.fitness.values = fit

    # This is just to assign the crowding distance to the individuals;
    # no actual selection is done.
    pop = toolbox.select(pop, len(pop))

    for gen in range(1, ngen):
        offspring = tools.selTournamentDCD(pop, len(pop))
        offspring = [toolbox.clone(ind) for ind in offspring]

        for ind1, ind2 in zip(offspring[::2], offspring[1::2]):
            if random.random() <= cxpb:
                toolbox.mate(ind1, ind2)
            toolbox.mutate(ind1)
            toolbox.mutate(ind2)
            del ind1.fitness.values, ind2.fitness.values

        invalid_ind = [ind for ind in offspring if not ind.fitness.valid]
        fitnesses = toolbox.map(toolbox.evaluate, invalid_ind)
        for ind, fit in zip(invalid_ind, fitnesses):
            ind.fitness.values = fit

        pop = toolbox.select(pop + offspring, mu)
    return pop


def parse_seeds(s):
    seeds = []
    for part in s.split(","):
        if "-" in part:
            lo, hi = part.split("-", 1)
            seeds.extend(range(int(lo), int(hi) + 1))
        else:
            seeds.append(int(part))
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problem", choices=sorted(PROBLEMS), default="zdt1")
    ap.add_argument("--seeds", default="1", help="seeds: 1,2,5 or 1-30")
    ap.add_argument("--generations", type=int, default=250, help="NGEN, counting the initial population")
    ap.add_argument("--population", type=int, default=100, help="MU, a multiple of 4")
    ap.add_argument("--variables", type=int, default=30)
    ap.add_argument("--cxpb", type=float, default=0.9)
    args = ap.parse_args()

    toolbox = make_toolbox(args.problem, args.variables, 0.0, 1.0)
    runs = []
    for seed in parse_seeds(args.seeds):
        start, cpu = time.perf_counter(), time.process_time()
        pop = run(toolbox, seed, args.generations, args.population, args.cxpb)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        front = tools.sortNondominated(pop, len(pop), first_front_only=True)[0]
        runs.append({
            "seed": seed,
            "seconds": seconds,
            "cpu_seconds": cpu,
            "hypervolume": float(hypervolume(pop, [11.0, 11.0])),
            "front": [list(ind.fitness.values) for ind in front],
        })
    json.dump({
        "deap_version": deap.__version__,
        "problem": args.problem,
        "population": args.population,
        "generations": args.generations,
        "variables": args.variables,
        "runs": runs,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
