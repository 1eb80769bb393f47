# Nurse rostering (schedulingbenchmarks.org, instance 1), read and modelled by CPMpy's own loader,
#   cpmpy.tools.io.nurserostering (load_nurserostering; the same model as CPMpy's
#   examples/nurserostering.py, whose __main__ asserts the optimum 607 on this instance).
# Instance: data/nurserostering_instance1.txt, CPMpy's test fixture
#   tests/data/io/nurserostering_instance1.txt (https://github.com/CPMpy/cpmpy, commit
#   98be9c1aaa08ad3e585ca16c920ed01b4772b47d, Apache License 2.0), from
#   https://schedulingbenchmarks.org/nrp/.
from pathlib import Path

from cpmpy.tools.io.nurserostering import load_nurserostering
from cpmpy.transformations.get_variables import get_variables_model

SOURCE = "cpmpy.tools.io.nurserostering.load_nurserostering on schedulingbenchmarks.org instance 1"

DATA = Path(__file__).resolve().parent / "data"


def build():
    model = load_nurserostering(str(DATA / "nurserostering_instance1.txt"))
    return model, get_variables_model(model)
