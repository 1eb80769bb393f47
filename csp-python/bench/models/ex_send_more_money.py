# Source: CPMpy repository, examples/send_more_money.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model is wrapped in build(); the solving and printing code is removed.
"""
Send more money in CPMpy

   SEND
 + MORE
 ------
  MONEY

"""
from cpmpy import *
import numpy as np

SOURCE = "CPMpy examples/send_more_money.py"


def build():
    # Construct the model.
    s,e,n,d,m,o,r,y = intvar(0,9, shape=8)

    model = Model(
        AllDifferent([s,e,n,d,m,o,r,y]),
        (    sum(   [s,e,n,d] * np.array([       1000, 100, 10, 1]) ) \
           + sum(   [m,o,r,e] * np.array([       1000, 100, 10, 1]) ) \
          == sum( [m,o,n,e,y] * np.array([10000, 1000, 100, 10, 1]) ) ),
        s > 0,
        m > 0,
    )
    return model, [s,e,n,d,m,o,r,y]
