# Source: CPMpy repository, examples/bus_schedule.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model is wrapped in build(); the solving and printing code is removed.
"""
Bus scheduling in CPMpy

Based on the Numberjack model of Hakan Kjellerstrand:
Problem from Taha "Introduction to Operations Research", page 58.
This is a slightly more general model than Taha's.
"""
from cpmpy import *
import numpy

SOURCE = "CPMpy examples/bus_schedule.py"


def build():
    # data
    demands = [8, 10, 7, 12, 4, 4]
    slots = len(demands)

    # variables
    x = intvar(0,sum(demands), shape=slots, name="x")

    model = Model(
        [x[i] + x[i+1] >= demands[i] for i in range(0,slots-1)],
        x[-1] + x[0] == demands[-1], # 'around the clock' constraint
    )
    model.minimize(sum(x))
    return model, [x]
