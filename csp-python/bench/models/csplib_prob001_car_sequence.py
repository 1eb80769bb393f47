# Source: CPMpy repository, examples/csplib/prob001_car_sequence.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied unchanged; build() builds the instance(s) below (the file's
#   __main__ defaults unless stated); the argument parsing, helper, solving and printing code is
#   removed; instances are read from the file's JSON data, copied to data/.
"""
Car sequencing in CPMpy (prob001 in CSPlib)
A number of cars are to be produced; they are not identical, because different options are available as variants on the basic model.
The assembly line has different stations which install the various options (air-conditioning, sun-roof, etc.).
These stations have been designed to handle at most a certain percentage of the cars passing along the assembly line.
Furthermore, the cars requiring a certain option must not be bunched together, otherwise the station will not be able to cope.
Consequently, the cars must be arranged in a sequence so that the capacity of each station is never exceeded.
For instance, if a particular station can only cope with at most half of the cars passing along the line, the sequence must be built so that at most 1 car in any 2 requires that option.
The problem has been shown to be NP-complete (Gent 1999).

https://www.csplib.org/Problems/prob001/

Based on the Minizinc model car.mzn.

Data format compatible with both variations of model (with and without block constraints)
Model was created by Ignace Bleukx, ignace.bleukx@kuleuven.be
"""

import cpmpy
from . import load_instance
from pathlib import Path
from cpmpy import *

def car_sequence(n_cars, n_options, n_classes, n_cars_p_class, options, capacity=None, blocks=None, **kwargs):
    # build model
    model = Model()

    # decision variables
    slots = intvar(0, n_classes - 1, shape=n_cars, name="slots")
    setup = boolvar(shape=(n_cars, n_options), name="setup")

    # convert options to cpm_array
    options = cpm_array(options)

    # satisfy demand
    model += [sum(slots == c) == n_cars_p_class[c] for c in range(n_classes)]

    # car has correct options
    # This can be written cleaner, see issue #117 on github
    # m += [setup[s] == options[slots[s]] for s in range(n_cars)]
    for s in range(n_cars):
        model += [setup[s, o] == options[slots[s], o] for o in range(n_options)]

    if capacity is not None and blocks is not None:
        # satisfy block capacity
        for o in range(n_options):
            setup_seq = setup[:, o]
            # get all setups within block size of each other
            windows = zip(*[setup_seq[b:] for b in range(blocks[o])])
            for block in windows:
                model += sum(block) <= capacity[o]

    return model, (slots, setup)

SOURCE = "CPMpy examples/csplib/prob001_car_sequence.py"


DATA = Path(__file__).resolve().parent / "data"


INSTANCES = {
    "4_72": {"instance": "Problem 4/72  (Regin & Puget #1)"},  # satisfiable
    "6_76": {"instance": "Problem 6/76 (Regin & Puget #2)"},  # no solution
    "60-04": {"instance": "Problem 60-04"},  # the file's default
}


def build(instance="Problem 60-04"):
    problem_params = load_instance("prob001_car_sequence.json", instance)
    model, (slots, setup) = car_sequence(**problem_params)
    return model, [slots, setup]
