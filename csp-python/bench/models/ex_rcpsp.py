# Source: CPMpy repository, examples/rcpsp.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model is wrapped in build(); the solving, printing and solution-checking code is removed.
from cpmpy import *

# toy model taken from :
# https://python-mip.readthedocs.io/en/latest/examples.html#resource-constrained-project-scheduling
# ported to CPMpy by Guillaume Poveda

SOURCE = "CPMpy examples/rcpsp.py"


def build():
    # Data
    durations = cpm_array([0, 3, 2, 5, 4, 2, 3, 4, 2, 4, 6, 0])

    resource_needs = cpm_array([[0, 0], [5, 1], [0, 4], [1, 4], [1, 3], [3, 2], [3, 1], [2, 4], [4, 0], [5, 2], [2, 5], [0, 0]])

    resource_capacities = cpm_array([6, 8])

    successors_link = cpm_array([[0, 1], [0, 2], [0, 3], [1, 4], [1, 5], [2, 9], [2, 10], [3, 8], [4, 6], [4, 7], [5, 9], [5, 10], [6, 8], [6, 9], [7, 8], [8, 11], [9, 11], [10, 11]])

    nb_resource = len(resource_capacities)
    nb_jobs = len(durations)
    max_duration = sum(durations)  # dummy upper bound, can be improved of course

    # Variables
    start_time = intvar(0, max_duration, shape=nb_jobs)


    model = Model()
    # Precedence constraints
    for j in range(successors_link.shape[0]):
        model += start_time[successors_link[j, 1]] >= start_time[successors_link[j, 0]]+durations[successors_link[j, 0]]

    # Cumulative resource constraint
    for r in range(nb_resource):
        model += Cumulative(start=start_time, duration=durations, end=start_time+durations,
                            demand=resource_needs[:, r], capacity=resource_capacities[r])

    makespan = max(start_time)
    model.minimize(makespan)
    return model, [start_time]
