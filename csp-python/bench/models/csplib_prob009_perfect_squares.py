# Source: CPMpy repository, examples/csplib/prob009_perfect_squares.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied unchanged; build() builds the instance(s) below (the file's
#   __main__ defaults unless stated); the argument parsing, helper, solving and printing code is
#   removed; instances are read from the file's JSON data, copied to data/.
"""
Perfect squares problem in cpmpy.

CSPLib prob 009: Perfect square placements
http://www.cs.st-andrews.ac.uk/~ianm/CSPLib/prob/prob009/index.html
'''
The perfect square placement problem (also called the squared square
problem) is to pack a set of squares with given integer sizes into a
bigger square in such a way that no squares overlap each other and all
square borders are parallel to the border of the big square. For a
perfect placement problem, all squares have different sizes. The sum of
the square surfaces is equal to the surface of the packing square, so
that there is no spare capacity. A simple perfect square placement
problem is a perfect square placement problem in which no subset of
the squares (greater than one) are placed in a rectangle.
'''
Inspired by implementation of Vessel Packing problem (008)
Model created by Ignace Bleukx, ignace.bleukx@kuleuven.be
"""
import sys
from . import load_instance
from pathlib import Path
import numpy as np
from cpmpy import *
from cpmpy.expressions.utils import all_pairs


def perfect_squares(base, sides, **kwargs):
    model = Model()
    sides = np.array(sides)

    squares = range(len(sides))

    # Ensure that the squares cover the base exactly
    assert np.square(sides).sum() == base ** 2, "Squares do not cover the base exactly!"

    # variables
    x_coords = intvar(0, base, shape=len(squares), name="x_coords")
    y_coords = intvar(0, base, shape=len(squares), name="y_coords")

    # squares must be in bounds of big square
    model += x_coords + sides <= base
    model += y_coords + sides <= base

    # no overlap between coordinates
    for a, b in all_pairs(squares):
        model += (
            (x_coords[a] + sides[a] <= x_coords[b]) |
            (x_coords[b] + sides[b] <= x_coords[a]) |
            (y_coords[a] + sides[a] <= y_coords[b]) |
            (y_coords[b] + sides[b] <= y_coords[a])
        )

    return model, (x_coords, y_coords)

SOURCE = "CPMpy examples/csplib/prob009_perfect_squares.py"


DATA = Path(__file__).resolve().parent / "data"


INSTANCES = {
    "problem3": {"instance": "problem3"},  # unsatisfiable
    "problem6": {"instance": "problem6"},
    "problem7": {"instance": "problem7"},
}


def build(instance="problem2"):
    problem_params = load_instance("prob009_perfect_squares.json", instance)
    model, (x_coords, y_coords) = perfect_squares(**problem_params)
    return model, [x_coords, y_coords]
