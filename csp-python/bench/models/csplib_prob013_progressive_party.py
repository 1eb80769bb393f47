# Source: CPMpy repository, examples/csplib/prob013_progressive_party.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied unchanged; build() builds the instance(s) below (the file's
#   __main__ defaults unless stated); the argument parsing, helper, solving and printing code is
#   removed; unused imports removed (import requests); instances are read from the file's JSON
#   data, copied to data/.
"""
    Progressive Party Problem (PPP) in CPMpy

    Problem 013 on CSPlib:
    https://www.csplib.org/Problems/prob013/

    The problem is to timetable a party at a yacht club.
    Certain boats are to be designated hosts, and the crews of the remaining boats in turn visit the host boats for several successive half-hour periods.
    The crew of a host boat remains on board to act as hosts while the crew of a guest boat together visits several hosts.
    Every boat can only hold a limited number of people at a time (its capacity) and crew sizes are different.
    The total number of people aboard a boat, including the host crew and guest crews, must not exceed the capacity.
    A guest boat cannot not revisit a host and guest crews cannot meet more than once.
    The problem facing the rally organizer is that of minimizing the number of host boats.

    Model by Ignace Bleukx, ignace.bleukx@kuleuven.be
"""
import sys
from . import load_instance
import json
from pathlib import Path

from cpmpy import *
from cpmpy.expressions.utils import all_pairs


def progressive_party(n_boats, n_periods, capacity, crew_size, **kwargs):
    is_host = boolvar(shape=n_boats, name="is_host")
    visits = intvar(0, n_boats - 1, shape=(n_periods, n_boats), name="visits")

    model = Model()

    # Crews of host boats stay on boat
    for boat in range(n_boats):
        model += (is_host[boat]).implies(all(visits[:, boat] == boat))

    # The total number of people aboard a boat, including the host crew and guest crews, must not exceed the capacity.
    for slot in range(n_periods):
        for boat in range(n_boats):
            # Sum of crew sizes of visiting boats + crew size of host boat (hosts are also included in visits, so no need to add separately)
            model += sum((visits[slot] == boat) * crew_size) <= capacity[boat]

    # Guests cannot visit a boat twice
    for boat in range(n_boats):
        model += (~is_host[boat]).implies(AllDifferent(visits[:, boat]))

    # Non-host boats cannot be visited
    for boat in range(n_boats):
        model += (~is_host[boat]).implies(all(visits != boat))

    # Crews cannot meet more than once
    for c1, c2 in all_pairs(range(n_boats)):
        model += sum(visits[:, c1] == visits[:, c2]) <= 1

    # Minimize number of hosts needed
    model.minimize(sum(is_host))

    return model, (visits, is_host)

SOURCE = "CPMpy examples/csplib/prob013_progressive_party.py"


DATA = Path(__file__).resolve().parent / "data"


INSTANCES = {
    "lan01": {"instance": "lan01"},  # the file's default
    "lan05": {"instance": "lan05"},
}


def build(instance="lan01"):
    problem_params = load_instance("prob013_progressive_party.json", instance)
    model, (visits, is_host) = progressive_party(**problem_params)
    return model, [visits, is_host]
