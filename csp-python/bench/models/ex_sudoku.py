# Source: CPMpy repository, examples/sudoku.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model is wrapped in build(); the solving and printing code is removed.
"""
Sudoku problem in CPMpy
"""

# load the libraries
import numpy as np
from cpmpy import *

SOURCE = "CPMpy examples/sudoku.py"


def build():
    e = 0 # value for empty cells
    given = np.array([
        [e, e, e,  2, e, 5,  e, e, e],
        [e, 9, e,  e, e, e,  7, 3, e],
        [e, e, 2,  e, e, 9,  e, 6, e],

        [2, e, e,  e, e, e,  4, e, 9],
        [e, e, e,  e, 7, e,  e, e, e],
        [6, e, 9,  e, e, e,  e, e, 1],

        [e, 8, e,  4, e, e,  1, e, e],
        [e, 6, 3,  e, e, e,  e, 8, e],
        [e, e, e,  6, e, 8,  e, e, e]])


    # Variables
    puzzle = intvar(1,9, shape=given.shape, name="puzzle")


    model = Model(
        # Constraints on values (cells that are not empty)
        puzzle[given!=e] == given[given!=e], # numpy's indexing, vectorized equality
        # Constraints on rows and columns
        [AllDifferent(row) for row in puzzle],
        [AllDifferent(col) for col in puzzle.T], # numpy's Transpose
    )

    # Constraints on blocks
    for i in range(0,9, 3):
        for j in range(0,9, 3):
            model += AllDifferent(puzzle[i:i+3, j:j+3]) # python's indexing
    return model, [puzzle]
