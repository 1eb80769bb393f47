# Source: CPMpy repository, examples/csplib/prob002_template_design.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model function is copied unchanged; build() builds the instance(s) below (the file's
#   __main__ defaults unless stated); the argument parsing, helper, solving and printing code is
#   removed; instances are read from the file's JSON data, copied to data/.
"""
Template design in CPMpy (prob002 in CSPlib)
https://www.csplib.org/Problems/prob002/

This problem arises from a colour printing firm which produces a variety of products from thin board,
including cartons for human and animal food and magazine inserts. Food products, for example, are often marketed as a
basic brand with several variations (typically flavours). Packaging for such variations usually has the same overall
design, in particular the same size and shape, but differs in a small proportion of the text displayed and/or in
colour. For instance, two variations of a cat food carton may differ only in that on one is printed ‘Chicken Flavour’
on a blue background whereas the other has ‘Rabbit Flavour’ printed on a green background. A typical order is for a
variety of quantities of several design variations. Because each variation is identical in dimension, we know in
advance exactly how many items can be printed on each mother sheet of board, whose dimensions are largely determined
by the dimensions of the printing machinery. Each mother sheet is printed from a template, consisting of a thin
aluminium sheet on which the design for several of the variations is etched. The problem is to decide, firstly,
how many distinct templates to produce, and secondly, which variations, and how many copies of each, to include on
each template. The following example is based on data from an order for cartons for different varieties of dry
cat-food.

Implementation based on Minizinc model in CSPlib.
Model created by Ignace Bleukx, ignace.bleukx@kuleuven.be
"""

from pathlib import Path
from . import load_instance
from cpmpy import *

def template_design(n_slots, n_templates, n_var, demand,**kwargs):

    ub = max(demand)

    # create model
    model = Model()

    # decision variables
    production = intvar(1, ub, shape=n_templates, name="production")
    layout = intvar(0,n_var, shape=(n_templates,n_var), name="layout")

    # all slots are populated in a template
    model += all(sum(layout[i]) == n_slots for i in range(n_templates))

    # meet demand
    for var in range(n_var):
        model += sum(production * layout[:,var]) >= demand[var]

    # break symmetry
    # equal demand
    for i in range(n_var-1):
        if demand[i] == demand[i+1]:
            model += layout[0,i] <= layout[0,i+1]
            for j in range(n_templates-1):
                model += (layout[j,i] == layout[j,i+1]).implies \
                         (layout[j+1,i] <= layout[j+1,i+1])

    # distinguish templates
    for i in range(n_templates-1):
        model += production[i] <= production[i+1]

    # static symmetry
    for i in range(n_var-1):
        if demand[i] < demand[i+1]:
            model += sum(production * layout[:,i]) <= sum(production * layout[:,i+1])

    # minimize number of printed sheets
    model.minimize(sum(production))

    return model, (production, layout)

SOURCE = "CPMpy examples/csplib/prob002_template_design.py"


DATA = Path(__file__).resolve().parent / "data"


INSTANCES = {
    "catfood2": {"instance": "catfood2"},  # the file's default
    "herbs2": {"instance": "herbs2"},
}


def build(instance="catfood2"):
    problem_params = load_instance("prob002_template_design.json", instance)
    model, (production, layout) = template_design(**problem_params)
    return model, [production, layout]
