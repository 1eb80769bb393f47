# JSPLib job-shop instances, read and modelled by CPMpy's own loader, cpmpy.tools.io.jsplib
#   (load_jsplib: start/end variables per task, precedences, one NoOverlap per machine, minimise
#   the makespan).
# Instances: data/jsplib_*.txt, copied verbatim from https://github.com/tamy0612/JSPLIB
#   (instances/, commit eea2b60dd7e2f5c907ff7302662c61812eb7efdf); ft06 is also CPMpy's test fixture
#   tests/data/io/jsplib_ft06.txt. Known optima (JSPLIB instances.json): ft06 55, la01 666,
#   la05 593, la16 945, ft10 930, orb01 1059, abz5 1234.
from pathlib import Path

from cpmpy.tools.io.jsplib import load_jsplib
from cpmpy.transformations.get_variables import get_variables_model

SOURCE = "cpmpy.tools.io.jsplib.load_jsplib on JSPLib instances"

DATA = Path(__file__).resolve().parent / "data"

INSTANCES = {name: {"instance": name} for name in ["ft06", "la01", "la05", "la16", "orb01", "abz5", "ft10"]}

OPTIMA = {"ft06": 55, "la01": 666, "la05": 593, "la16": 945, "orb01": 1059, "abz5": 1234, "ft10": 930}


def build(instance="ft06"):
    model = load_jsplib(str(DATA / f"jsplib_{instance}.txt"))
    return model, get_variables_model(model)
