"""CPMpy models for bench/cpsat_side_by_side.py.

Each module exposes ``build(**kwargs) -> (cpmpy.Model, list_of_decision_vars)``; ``build()`` with no
arguments builds its default instance. A module may also define ``INSTANCES``, a dict from an
instance name to the keyword arguments of ``build``: the benchmark then runs one entry per instance,
named ``module:instance``. ``SOURCE`` names where the model comes from.

The models are copied from the CPMpy repository (https://github.com/CPMpy/cpmpy, Apache License 2.0,
commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, tag v1.0.0), each with its source path and the
changes made in a header comment. Instance files are in ``data/`` (see ``data/README.md``).
"""

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def load_instance(filename, pname):
    """The instance named `pname` of a JSON instance file of CPMpy's examples/csplib/ (in ``data/``),
    as CPMpy's examples read it; shared by the models that read one."""
    with open(DATA / filename, "r") as f:
        data = json.load(f)
    for entry in data:
        if pname == entry["name"]:
            return entry
    raise ValueError(f"Problem instance with name '{pname}' not found")
