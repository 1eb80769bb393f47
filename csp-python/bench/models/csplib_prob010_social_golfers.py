# Source: CPMpy repository, examples/csplib/prob010_social_golfers.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied without its print() calls; build() builds the instance(s) below
#   (the file's __main__ defaults unless stated); the argument parsing, helper, solving and
#   printing code is removed.
"""
Social golfer problem in cpmpy.

CSPLib problem 10:
http://www.csplib.org/prob/prob010/index.html
'''
The coordinator of a local golf club has come to you with the following
problem. In her club, there are 32 social golfers, each of whom play golf
once a week, and always in groups of 4. She would like you to come up
with a schedule of play for these golfers, to last as many weeks as
possible, such that no golfer plays in the same group as any other golfer
on more than one occasion.

Possible variants of the above problem include: finding a 10-week schedule
with ``maximum socialisation''; that is, as few repeated pairs as possible
(this has the same solutions as the original problem if it is possible
to have no repeated pairs), and finding a schedule of minimum length
such that each golfer plays with every other golfer at least once
(``full socialisation'').

The problem can easily be generalized to that of scheduling m groups of
n golfers over p weeks, such that no golfer plays in the same group as any
other golfer twice (i.e. maximum socialisation is achieved).
'''


This model is a translation of the OPL code from
http://www.dis.uniroma1.it/~tmancini/index.php?currItem=research.publications.webappendices.csplib2x.problemDetails&problemid=010



This cpmpy model was written by Hakan Kjellerstrand (hakank@gmail.com)
See also my cpmpy page: http://hakank.org/cpmpy/

Modified by Ignace Bleukx, ignace.bleukx@kuleuven.be
"""
from cpmpy import *
from cpmpy.expressions.utils import all_pairs
import numpy as np

def social_golfers(n_weeks, n_groups, group_size, **kwargs):

    n_golfers = n_groups * group_size

    golfers = np.arange(n_golfers)
    weeks = np.arange(n_weeks)
    groups = np.arange(n_groups)

    #Possible configurations
    assign = intvar(0, n_groups - 1, shape=(n_golfers, n_weeks), name="assign")

    model = Model()

    # C1: Each group has exactly groupSize players
    for gr in groups:
        # can be written cleaner, see issue #117
        # model += sum(assign == gr, axis=1) == groupSize
        for w in weeks:
            model += sum(assign[:,w] == gr) == group_size

    # C2: Each pair of players only meets at most once
    for g1, g2 in all_pairs(golfers):
        model += sum(assign[g1] == assign[g2]) <= 1


    # SBSA: Symmetry-breaking by selective assignment
    # On the first week, the first groupSize golfers play in group 1, the
    # second groupSize golfers play in group 2, etc. On the second week,
    # golfer 1 plays in group 1, golfer 2 plays in group 2, etc.
    model += [assign[:,0] == (golfers // group_size)]

    for g in golfers:
        if g < group_size:
            model += [assign[g, 1] == g]

    # First golfer always in group 0
    model += [assign[0, :] == 0]

    return model, (assign,)

SOURCE = "CPMpy examples/csplib/prob010_social_golfers.py"

INSTANCES = {
    "4-3-3": {"n_weeks": 4, "n_groups": 3, "group_size": 3},  # the file's default
    "kirkman_7-5-3": {"n_weeks": 7, "n_groups": 5, "group_size": 3},  # Kirkman's schoolgirls
}


def build(n_weeks=4, n_groups=3, group_size=3):
    model, (assign,) = social_golfers(n_weeks=n_weeks, n_groups=n_groups, group_size=group_size)
    return model, [assign]
