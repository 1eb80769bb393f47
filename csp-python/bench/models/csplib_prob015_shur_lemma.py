# Source: CPMpy repository, examples/csplib/prob015_shur_lemma.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied unchanged; build() builds the instance(s) below (the file's
#   __main__ defaults unless stated); the argument parsing, helper, solving and printing code is
#   removed.
"""
Problem 015 on CSPLib

Given n balls, labelled 1 to n, put them into c boxes such that for any triple of balls (x1,x2,...,xc) with sum(x1,x2,...,xc-1) = xc, not all are in the same box.


Adapted from Numberjack implementation https://github.com/csplib/csplib/blob/master/Problems/prob015/models/SchursLemma.py

Modified by Ignace Bleukx, ignace.bleukx@kuleuven.be
"""
import numpy as np

from cpmpy import *

def shur_lemma(n, c):
    # balls[i] = j iff ball i is in box j
    balls = intvar(1, c, shape=n, name="balls")

    model = Model()

    for i in range(1, n + 1):
        for j in range(1, n - i + 1):
            model += (balls[i - 1] != balls[j - 1]) | \
                     (balls[i - 1] != balls[i + j - 1]) | \
                     (balls[j - 1] != balls[i + j - 1])

    return model, (balls,)

SOURCE = "CPMpy examples/csplib/prob015_shur_lemma.py"

INSTANCES = {
    "13-3": {"n": 13, "c": 3},  # the largest n with a solution for 3 boxes
    "14-3": {"n": 14, "c": 3},  # unsatisfiable (the Schur number S(3) is 13)
    "44-4": {"n": 44, "c": 4},  # S(4) = 44
}


def build(n=12, c=3):
    model, (balls,) = shur_lemma(n, c)
    return model, [balls]
