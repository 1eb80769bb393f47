# Source: CPMpy repository, examples/bibd.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model is wrapped in build(); the solving and printing code is removed.
"""
Balanced Incomplete Block Design (BIBD) in CPMpy

CSPlib prob028

Problem description from the numberjack example:
A BIBD is defined as an arrangement of v distinct objects into b blocks such
that each block contains exactly k distinct objects, each object occurs in
exactly r different blocks, and every two distinct objects occur together in
exactly lambda blocks.
Another way of defining a BIBD is in terms of its
incidence matrix, which is a v by b binary matrix with exactly r ones per row,
k ones per column, and with a scalar product of lambda 'l' between any pair of
distinct rows.
"""

# load the libraries
import numpy as np
from cpmpy import *


SOURCE = "CPMpy examples/bibd.py"


def build():
    # Data
    v,b = 7,7
    r,k = 3,3
    l = 1


    # Variables, incidence matrix
    block = boolvar(shape=(v,b), name="block")

    # Constraints on incidence matrix
    m = Model(
            [sum(row) == r for row in block],
            [sum(col) == k for col in block.T],
    )

    # the scalar product of every pair of distinct rows sums up to `l`
    for row_a in range(v):
        for row_b in range(row_a+1,v):
            m += sum(block[row_a,:] * block[row_b,:]) == l
    return m, [block]
