# Source: CPMpy repository, examples/csplib/prob005_auto_correlation.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied unchanged; build() builds the instance(s) below (the file's
#   __main__ defaults unless stated); the argument parsing, helper, solving and printing code is
#   removed; unused imports removed (import argparse).
"""
    Minimizing autocorrelation of bitarray in CPMpy

    Problem 005 on CSPlib

    Model created by Ignace Bleukx, ignace.bleukx@kuleuven.be
"""

import numpy as np

from cpmpy import *


def auto_correlation(n=16):

    # bitarray of length n
    arr = intvar(-1,1,shape=n, name="arr")

    model = Model()

    # exclude 0
    model += arr != 0

    # minimize sum of squares
    model.minimize(
        sum([PAF(arr,s) ** 2 for s in range(1,n)])
    )

    return model, (arr,)

# periodic auto correlation
def PAF(arr, s):
    # roll the array 's' indices
    return sum(arr * np.roll(arr,-s))

SOURCE = "CPMpy examples/csplib/prob005_auto_correlation.py"

INSTANCES = {
    "n16": {"n": 16},  # the function's default
    "n24": {"n": 24},
}


def build(n=16):
    model, (arr,) = auto_correlation(n)
    return model, [arr]
