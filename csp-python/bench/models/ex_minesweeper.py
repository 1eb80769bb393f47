# Source: CPMpy repository, examples/minesweeper.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model is wrapped in build(); the solving and printing code is removed.
"""
Minesweeper problem in CpMPy

Based on the Minesweeper model of Hakan Kjellerstrand
http://www.hakank.org/common_cp_models/#minesweeper

A specification is a square matrix of characters. Alphanumeric 
characters represent the number of mines adjacent to that field. 
X represent fields with an unknown number of mines adjacent to 
it (or an actual mine).
'''

E.g.
     "XX2X3X"
     "2XXXXX"
     "XX24X3"
     "1X34XX"
     "XXXXX3"
     "X3X3XX"

"""

from cpmpy import *
import numpy as np


SOURCE = "CPMpy examples/minesweeper.py"


def build():
    X = -1
    game = np.array([
                [2,3,X,2,2,X,2,1],
                [X,X,4,X,X,4,X,2],
                [X,X,X,X,X,X,4,X],
                [X,5,X,6,X,X,X,2],
                [2,X,X,X,5,5,X,2],
                [1,3,4,X,X,X,4,X],
                [0,1,X,4,X,X,X,3],
                [0,1,2,X,2,3,X,2]
                ])

    rows, cols = game.shape
    S = [-1,0,1] # for the neighbors of a cell

    # Variables (mine or not)
    mines = boolvar(shape=game.shape) 

    model = Model()
    for (r,c), val in np.ndenumerate(game):
        if val != X:
            # This cell cannot be a mine
            model += mines[r,c] == 0 
            # Count neighbors
            model += (sum(mines[r+a,c+b] for a in S for b in S \
                                         if r+a >= 0 and r+a < rows \
                                         and c+b >= 0 and c+b < cols) \
                      == val)
    return model, [mines]
