# Source: CPMpy repository, examples/csplib/prob024_langford.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied without its print() calls; build() builds the instance(s) below
#   (the file's __main__ defaults unless stated); the argument parsing, helper, solving and
#   printing code is removed.
"""
Langford's number problem in cpmpy.

Langford's number problem (CSP lib problem 24)
http://www.csplib.org/prob/prob024/

Arrange 2 sets of positive integers 1..k to a sequence,
such that, following the first occurence of an integer i,
each subsequent occurrence of i, appears i+1 indices later
than the last.
For example, for k=4, a solution would be 41312432


Model created by Hakan Kjellerstrand, hakank@hakank.com
See also my cpmpy page: http://www.hakank.org/cpmpy/

Modified by Ignace Bleukx
"""
import sys
from cpmpy import *
import numpy as np

def langford(k=8):
    model = Model()

    if not (k % 4 == 0 or k % 4 == 3):
        return

    # variables
    position = intvar(0, 2 * k - 1, shape=2 * k, name="position")
    solution = intvar(1, k, shape=2 * k, name="solution")

    # constraints
    model += [AllDifferent(position)]

    # can be written without for-loop, see issue #117 on github
    # i = np.arange(1,k+1)
    # model += position[i + k -1] == (position[i - 1] + i  + 1)
    # model += solution[position[i-1]] == i
    # model += solution[position[k+i-1]] == i

    for i in range(1, k + 1):
        model += [position[i + k - 1] == position[i - 1] + i + 1]
        model += [i == solution[position[i - 1]]]
        model += [i == solution[position[k + i - 1]]]

    # symmetry breaking
    model += [solution[0] < solution[2 * k - 1]]

    return model, (position, solution)

SOURCE = "CPMpy examples/csplib/prob024_langford.py"

INSTANCES = {
    "8": {"k": 8},  # the file's default
    "20": {"k": 20},
}


def build(k=8):
    model, (position, solution) = langford(k)
    return model, [position, solution]
