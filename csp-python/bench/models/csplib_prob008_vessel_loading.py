# Source: CPMpy repository, examples/csplib/prob008_vessel_loading.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied unchanged; build() builds the instance(s) below (the file's
#   __main__ defaults unless stated); the argument parsing, helper, solving and printing code is
#   removed; unused imports removed (import requests); instances are read from the file's JSON
#   data, copied to data/; the "hard" instance instead of the default "easy".
"""
    Vessel loading in CPMpy
    Problem 008 in CSPlib

    Model inspired by Essence implementation on CSPlib

    Created by Ignace Bleukx

"""

import sys
from . import load_instance
import json
from pathlib import Path

import numpy as np

from cpmpy import *
from cpmpy.expressions.utils import all_pairs

def vessel_loading(deck_width, deck_length, n_containers, width, length, classes, separation, **kwargs):

    # setup data
    containers = list(range(n_containers))
    classes = np.array(classes)
    separation = np.array(separation)

    model = Model()

    # layout of containers
    left = intvar(0, deck_width, shape=n_containers, name="left")
    right = intvar(0, deck_width, shape=n_containers, name="right")
    top = intvar(0, deck_length, shape=n_containers, name="top")
    bottom = intvar(0, deck_length, shape=n_containers, name="bottom")

    # set shape of containers
    model += (
            (((right - left) == width) & ((top - bottom) == length)) # along shipdeck
                                        |
            (((right - left) == length) & ((top - bottom) == width)) # accross shipdeck
    )


    # no overlap between containers
    for x,y in all_pairs(containers):
        c1,c2 = classes[[x,y]]
        sep = separation[c1-1,c2-1]
        model += (
                (right[x] + sep <= left[y]) | # x at least sep left of y or
                (left[x] >= right[y] + sep) | # x at least sep right of y or
                (top[x] + sep <= bottom[y]) | # x at least sep under y or
                (bottom[x] >= top[y] + sep)   # x at least sep above y
        )

    return model, (left, right, top, bottom)

SOURCE = "CPMpy examples/csplib/prob008_vessel_loading.py"


DATA = Path(__file__).resolve().parent / "data"


def build(instance="hard"):
    problem_params = load_instance("prob008_vessel_loading.json", instance)
    model, (left, right, top, bottom) = vessel_loading(**problem_params)
    return model, [left, right, top, bottom]
