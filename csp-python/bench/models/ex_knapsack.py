# Source: CPMpy repository, examples/knapsack.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model is wrapped in build(); the solving and printing code is removed.
"""
Knapsack problem in CPMpy
 
Based on the Numberjack model of Hakan Kjellerstrand
"""
import numpy as np
from cpmpy import *

SOURCE = "CPMpy examples/knapsack.py"


def build():
    # Problem data
    n = 10
    np.random.seed(1)
    values = np.random.randint(0,10, n)
    weights = np.random.randint(1,5, n)
    capacity = np.random.randint(sum(weights)*.2, sum(weights)*.5)

    # Construct the model.
    x = boolvar(shape=n, name="x")

    model = Model(
                sum(x*weights) <= capacity,
            maximize=
                sum(x*values)
            )
    return model, [x]
