"""A planted 'compressed sensing' threshold m* = 2 k log(n/k), probit width 0.1 in log m."""
import math

import numpy as np
from scipy.stats import norm

import theorycheck


def trial(params, seed):
    k, n, m = params["k"], params["n"], params["m"]
    p = norm.cdf((math.log(m) - math.log(2 * k * math.log(n / k))) / 0.1)
    return bool(np.random.default_rng(seed).random() < p)


TASK = theorycheck.Task(name="sparse-toy", trial=trial, resource="m",
                        variables={"k": ("integer", 1, 10**6), "n": ("integer", 2, 10**9), "m": ("real", 1, 1e12)},
                        defaults={"k": 8, "n": 4096, "m": 100.0})
