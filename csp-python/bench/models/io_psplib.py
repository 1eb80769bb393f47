# PSPLIB RCPSP (single-mode) instances, read and modelled by CPMpy's own loader,
#   cpmpy.tools.io.rcpsp (load_rcpsp: start/end variables per job, one Cumulative per resource,
#   precedences, minimise the makespan).
# Instances: data/*.sm, from the PSPLIB (https://www.om-db.wi.tum.de/psplib/, Kolisch & Sprecher,
#   "PSPLIB - A project scheduling problem library", EJOR 96, 1996). j3013_1.sm is CPMpy's test
#   fixture tests/data/io/rcpsp_j3013_1.sm; j301_1, j601_1, j901_1 and j1201_1 are copied verbatim
#   from the PSPLIB archives as stored in https://github.com/zzq2000/PSPLIB (dataset/RCPSP/,
#   commit 54f2046b653e894a3cc135d939a1200b5113bb5d).
from pathlib import Path

from cpmpy.tools.io.rcpsp import load_rcpsp
from cpmpy.transformations.get_variables import get_variables_model

SOURCE = "cpmpy.tools.io.rcpsp.load_rcpsp on PSPLIB instances"

DATA = Path(__file__).resolve().parent / "data"

# data/j1201_1.sm (120 jobs) is left out: with rcsp, building the model (CPMpy's decomposition of
# Cumulative, lowered by rcsp.Model.add, whose cost grows with the model's size) alone ran past the
# hard limit of time limit + 30 s in the 1 s smoke test. Add "j1201_1" here to run it.
INSTANCES = {name: {"instance": name} for name in ["j301_1", "j3013_1", "j601_1", "j901_1"]}


def build(instance="j301_1"):
    model = load_rcpsp(str(DATA / f"{instance}.sm"))
    return model, get_variables_model(model)
