#!/usr/bin/env python
"""The same CPMpy models on this engine ("rcsp") and on OR-Tools CP-SAT, side by side.

    python bench/cpsat_side_by_side.py --time-limit 20 --out results.json [--models DIR] [--only NAME...]

Every model of ``bench/models`` (or ``--models DIR``) is built by its module's ``build()`` and solved
by each solver in a subprocess of its own, one thread each: ``solver="rcsp"`` with ``time_limit``,
``threads=1``, ``seed=0``, and ``solver="ortools"`` with ``time_limit``, ``num_workers=1``. A
subprocess that runs past ``time_limit + 30`` seconds is killed, and a crash or a hang costs that
one result, recorded as ERROR, not the run.

Every solution returned is checked in the subprocess that found it, by CPMpy's own evaluator: each
constraint of the model must evaluate to true under the values the solver assigned, and the
objective, evaluated the same way, must equal the objective value the solver reported. A solution
that fails is recorded as WRONG. Between solvers, an UNSATISFIABLE claim is WRONG when the other
solver's checked solution exists, and an OPTIMAL claim is WRONG when the other solver's checked
solution is strictly better.

The per-instance score is the MiniZinc Challenge's, the same formula as the project's own
implementation in ``examples/mzn-bench/score.rs`` (``Answer::of`` and ``against``): a proven answer
(a proven optimum, proven unsatisfiability, a solution of a satisfaction problem) beats an unproven
solution, which beats none; two unproven solutions of an optimisation problem are ranked by
objective; otherwise the point is split by time as ``t_other / (t_self + t_other)``, with times
floored at a millisecond, and an unproven answer counted at the full time limit. No answer, an
error or a wrong answer scores 0. See bench/README.md.

The table goes to stdout as Markdown, the full results to ``--out`` as JSON (rewritten after each
model, so an interrupted run keeps what it measured).
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import os
import platform
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_MODELS = HERE / "models"

# The solvers, in table order: (key, CPMpy solver name, keyword arguments beside time_limit).
SOLVERS = {
    "rcsp": ("rcsp", {"threads": 1, "seed": 0}),
    "ortools": ("ortools", {"num_workers": 1}),
}
LABELS = {"rcsp": "rcsp", "ortools": "CP-SAT"}

# Seconds a subprocess may run beyond the time limit (imports, building the model, CPMpy's
# transformations, checking the solution) before it is killed.
GRACE = 30.0

# The score's time floor, as examples/mzn-bench/score.rs (TIME_FLOOR): the Challenge reports times
# in milliseconds.
TIME_FLOOR = 1e-3

RESULT_MARK = "@@RESULT@@ "


# ---------------------------------------------------------------------------------------------
# Finding the models


def discover(models_dir: Path) -> list[dict]:
    """Every entry of the models directory: one per module, or one per instance of a module that
    defines INSTANCES."""
    sys.path.insert(0, str(models_dir.parent))
    package = models_dir.name
    entries = []
    for path in sorted(models_dir.glob("*.py")):
        if path.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package}.{path.stem}")
        if not hasattr(module, "build"):
            continue
        instances = getattr(module, "INSTANCES", None)
        source = getattr(module, "SOURCE", path.stem)
        if instances:
            for name, kwargs in instances.items():
                entries.append(
                    {"name": f"{path.stem}:{name}", "module": path.stem, "instance": name, "kwargs": kwargs, "source": source}
                )
        else:
            entries.append({"name": path.stem, "module": path.stem, "instance": None, "kwargs": {}, "source": source})
    return entries


def select(entries: list[dict], only: list[str] | None) -> list[dict]:
    """The entries named by --only: an entry's full name, its module's name, or a glob of either."""
    if not only:
        return entries
    chosen = []
    for entry in entries:
        if any(
            pattern in (entry["name"], entry["module"])
            or fnmatch.fnmatchcase(entry["name"], pattern)
            or fnmatch.fnmatchcase(entry["module"], pattern)
            for pattern in only
        ):
            chosen.append(entry)
    return chosen


# ---------------------------------------------------------------------------------------------
# One solver on one model, in a subprocess


def _flatten(constraints):
    """The model's constraints as a flat list (Model keeps nested lists as they were added)."""
    import numpy as np

    out = []
    stack = [constraints]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple, np.ndarray)):
            stack.extend(reversed(list(np.asarray(item, dtype=object).flat) if isinstance(item, np.ndarray) else list(item)))
        else:
            out.append(item)
    return out


def _as_int(value):
    if value is None:
        return None
    if isinstance(value, float):
        if value != round(value):
            return value
        return int(round(value))
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def check_solution(model) -> list[str]:
    """Why the values now assigned to the model's variables are not a solution (empty if they are):
    each constraint is evaluated by CPMpy's evaluator."""
    problems = []
    for index, constraint in enumerate(_flatten(model.constraints)):
        try:
            value = constraint.value() if hasattr(constraint, "value") else bool(constraint)
        except Exception as error:  # noqa: BLE001 - an evaluation error is a failed check
            problems.append(f"constraint {index} could not be evaluated ({type(error).__name__}: {error}): {_short(constraint)}")
            continue
        if value is None:
            problems.append(f"constraint {index} has unassigned variables: {_short(constraint)}")
        elif not bool(value):
            problems.append(f"constraint {index} is violated: {_short(constraint)}")
        if len(problems) >= 5:
            problems.append("(further violations not listed)")
            break
    return problems


def _short(expr, limit=300):
    text = str(expr)
    return text if len(text) <= limit else text[:limit] + "…"


def worker(models_dir: Path, entry_name: str, solver_key: str, time_limit: float) -> dict:
    """Builds one entry's model, solves it with one solver, checks the answer; returns a dict."""
    result = {"solver": solver_key, "status": "ERROR", "objective": None, "time": None, "solve_time": None, "errors": []}
    try:
        module_name, _, instance = entry_name.partition(":")
        sys.path.insert(0, str(models_dir.parent))
        module = importlib.import_module(f"{models_dir.name}.{module_name}")
        kwargs = module.INSTANCES[instance] if instance else {}
        started = time.perf_counter()
        model, _decision_vars = module.build(**kwargs)
        result["build_time"] = time.perf_counter() - started
    except Exception:  # noqa: BLE001
        result["errors"].append("building the model failed:\n" + traceback.format_exc())
        return result

    from cpmpy.solvers.utils import SolverLookup
    from cpmpy.transformations.get_variables import get_variables_model

    result["n_vars"] = len(get_variables_model(model))
    result["n_constraints"] = len(_flatten(model.constraints))
    result["kind"] = "satisfy" if model.objective_ is None else ("minimize" if model.objective_is_min else "maximize")

    name, options = SOLVERS[solver_key]
    started = time.perf_counter()
    try:
        if solver_key == "rcsp":
            import rcsp.cpmpy  # noqa: F401 - registers the "rcsp" solver with CPMpy
        # As cpmpy.Model.solve does, but keeping the solver object for its reported objective: the
        # time limit covers CPMpy's transformations as well as the search.
        started = time.perf_counter()
        solver = SolverLookup.get(name, model)
        remaining = time_limit - (time.perf_counter() - started)
        if remaining <= 0:
            found = False
            status = "UNKNOWN"
        else:
            found = solver.solve(time_limit=remaining, **options)
            status = solver.status().exitstatus.name
        result["time"] = time.perf_counter() - started
        if remaining > 0:
            result["solve_time"] = solver.status().runtime
    except Exception:  # noqa: BLE001
        result["time"] = time.perf_counter() - started
        result["errors"].append(traceback.format_exc())
        return result

    result["status"] = status
    has_solution = status in ("OPTIMAL", "FEASIBLE")
    if bool(found) != has_solution:
        result["errors"].append(f"solve() returned {found!r} with status {status}")
    if has_solution:
        problems = check_solution(model)
        if model.objective_ is not None:
            reported = _as_int(solver.objective_value())
            try:
                evaluated = _as_int(model.objective_.value())
            except Exception as error:  # noqa: BLE001
                evaluated = None
                problems.append(f"the objective could not be evaluated ({type(error).__name__}: {error})")
            result["objective"] = reported
            result["objective_evaluated"] = evaluated
            if evaluated is None or reported != evaluated:
                problems.append(f"reported objective {reported} but the solution's objective is {evaluated}")
        if problems:
            result["status"] = "WRONG"
            result["claimed_status"] = status
            result["wrong"] = problems
    return result


def run_one(models_dir: Path, entry: dict, solver_key: str, time_limit: float) -> dict:
    """One solver on one entry in a subprocess of its own, killed (with its process group) after
    time_limit + GRACE seconds."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        entry["name"],
        "--solver",
        solver_key,
        "--time-limit",
        str(time_limit),
        "--models",
        str(models_dir),
    ]
    hard_limit = time_limit + GRACE
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=hard_limit)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        stdout, stderr = process.communicate()
        wall = time.perf_counter() - started
        return {
            "solver": solver_key,
            "status": "ERROR",
            "objective": None,
            "time": wall,
            "errors": [f"killed after the hard wall-clock limit of {hard_limit:g} s (time limit + {GRACE:g} s)"],
            "stderr_tail": _tail(stderr),
        }
    wall = time.perf_counter() - started
    for line in reversed(stdout.splitlines()):
        if line.startswith(RESULT_MARK):
            result = json.loads(line[len(RESULT_MARK) :])
            result["process_time"] = wall
            if result.get("errors"):
                result["stderr_tail"] = _tail(stderr)
            return result
    return {
        "solver": solver_key,
        "status": "ERROR",
        "objective": None,
        "time": wall,
        "errors": [f"the subprocess ended with exit code {process.returncode} and no result"],
        "stderr_tail": _tail(stderr),
        "process_time": wall,
    }


def _tail(text, lines=25):
    return "\n".join((text or "").splitlines()[-lines:])


# ---------------------------------------------------------------------------------------------
# Cross-checks and the score


def proven(result: dict, kind: str) -> bool:
    """Whether the answer is final: a proven optimum, proven unsatisfiability, or a (checked)
    solution of a satisfaction problem."""
    status = result["status"]
    return status in ("OPTIMAL", "UNSATISFIABLE") or (status == "FEASIBLE" and kind == "satisfy")


def better(a, b, kind: str) -> bool:
    """Whether objective a is strictly better than b."""
    return a < b if kind == "minimize" else a > b


def cross_check(results: dict, kind: str) -> None:
    """Marks as WRONG a claim another solver's checked solution refutes: unsatisfiability, or an
    optimum it beats."""
    for key, mine in results.items():
        for other_key, other in results.items():
            if other_key == key or other["status"] not in ("OPTIMAL", "FEASIBLE"):
                continue
            reason = None
            if mine["status"] == "UNSATISFIABLE":
                reason = f"claims UNSATISFIABLE but {LABELS.get(other_key, other_key)} found a checked solution"
            elif (
                mine["status"] == "OPTIMAL"
                and kind != "satisfy"
                and mine.get("objective") is not None
                and other.get("objective") is not None
                and better(other["objective"], mine["objective"], kind)
            ):
                reason = (
                    f"claims the optimum {mine['objective']} but {LABELS.get(other_key, other_key)} "
                    f"found a checked solution with objective {other['objective']}"
                )
            if reason:
                mine["claimed_status"] = mine["status"]
                mine["status"] = "WRONG"
                mine.setdefault("wrong", []).append(reason)


def answer(result: dict, kind: str, time_limit: float) -> dict:
    """The score's view of a result, as examples/mzn-bench/score.rs Answer::of: rank 2 for a proven
    answer, 1 for an unproven (checked) solution, 0 for none, an error or a wrong answer; the
    time is the run's for a proven answer and the whole limit otherwise."""
    if proven(result, kind):
        rank = 2
    elif result["status"] == "FEASIBLE":
        rank = 1
    else:
        rank = 0
    seconds = result.get("time")
    return {
        "rank": rank,
        "objective": result.get("objective") if kind != "satisfy" else None,
        "time": seconds if rank == 2 and seconds is not None else time_limit,
    }


def against(this: dict, other: dict, kind: str) -> float:
    """The score of `this` against `other` on one instance: examples/mzn-bench/score.rs against()."""
    if this["rank"] == 0:
        return 0.0
    if this["rank"] != other["rank"]:
        return 1.0 if this["rank"] > other["rank"] else 0.0
    if (
        this["rank"] == 1
        and kind != "satisfy"
        and this["objective"] is not None
        and other["objective"] is not None
        and this["objective"] != other["objective"]
    ):
        return 1.0 if better(this["objective"], other["objective"], kind) else 0.0
    mine, theirs = max(this["time"], TIME_FLOOR), max(other["time"], TIME_FLOOR)
    return theirs / (mine + theirs)


def scores(results: dict, kind: str, time_limit: float) -> dict:
    """Each solver's total against all the others on one instance (score.rs totals())."""
    answers = {key: answer(result, kind, time_limit) for key, result in results.items()}
    return {
        key: sum(against(answers[key], answers[other], kind) for other in answers if other != key) for key in answers
    }


# ---------------------------------------------------------------------------------------------
# Reporting


def _fmt_time(seconds):
    return "–" if seconds is None else f"{seconds:.2f}"


def _fmt_obj(value):
    return "" if value is None else str(value)


STATUS_SHORT = {
    "OPTIMAL": "opt",
    "FEASIBLE": "feas",
    "UNSATISFIABLE": "unsat",
    "UNKNOWN": "unknown",
    "ERROR": "**ERROR**",
    "WRONG": "**WRONG**",
}


def _fmt_status(result, kind):
    status = result["status"]
    if status == "FEASIBLE" and kind == "satisfy":
        return "sat"
    return STATUS_SHORT.get(status, status)


def totals(rows: list[dict], solver_keys: list[str]) -> dict:
    out = {}
    for key in solver_keys:
        done = [r for r in rows if key in r["results"]]
        out[key] = {
            "entries": len(done),
            "proven": sum(proven(r["results"][key], r["kind"]) for r in done),
            "optimal": sum(r["results"][key]["status"] == "OPTIMAL" for r in done),
            "unsatisfiable": sum(r["results"][key]["status"] == "UNSATISFIABLE" for r in done),
            "solved_satisfaction": sum(
                r["kind"] == "satisfy" and r["results"][key]["status"] == "FEASIBLE" for r in done
            ),
            "feasible_unproven": sum(
                r["kind"] != "satisfy" and r["results"][key]["status"] == "FEASIBLE" for r in done
            ),
            "unknown": sum(r["results"][key]["status"] == "UNKNOWN" for r in done),
            "error": sum(r["results"][key]["status"] == "ERROR" for r in done),
            "wrong": sum(r["results"][key]["status"] == "WRONG" for r in done),
            "score": sum(r["scores"].get(key, 0.0) for r in done),
            # The time of every run, an unproven one counted at the time it used.
            "time_total": sum((r["results"][key].get("time") or 0.0) for r in done),
        }
    proven_by_all = [r for r in rows if all(proven(r["results"][k], r["kind"]) for k in solver_keys if k in r["results"])]
    for key in solver_keys:
        out[key]["time_on_commonly_proven"] = sum((r["results"][key].get("time") or 0.0) for r in proven_by_all)
    out["commonly_proven"] = len(proven_by_all)
    better_count = {}
    for key in solver_keys:
        better_count[key] = sum(
            1
            for r in rows
            if all(k in r["scores"] for k in solver_keys)
            and r["scores"][key] > max(r["scores"][k] for k in solver_keys if k != key)
        )
    out["wins"] = better_count
    return out


def markdown(rows: list[dict], solver_keys: list[str], time_limit: float) -> str:
    header = ["model", "kind"]
    for key in solver_keys:
        label = LABELS.get(key, key)
        header += [f"{label} status", f"{label} obj", f"{label} s"]
    header += [f"score {LABELS.get(k, k)}" for k in solver_keys]
    lines = [
        f"Time limit {time_limit:g} s per solver, one thread each. Status: opt = proven optimum, "
        "sat = solution of a satisfaction problem, unsat = proven infeasible, feas = unproven "
        "solution, unknown = nothing by the limit. Score: MiniZinc Challenge (examples/mzn-bench/score.rs).",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    for row in rows:
        cells = [row["name"], {"minimize": "min", "maximize": "max", "satisfy": "sat"}[row["kind"]]]
        for key in solver_keys:
            result = row["results"].get(key)
            if result is None:
                cells += ["", "", ""]
                continue
            cells += [_fmt_status(result, row["kind"]), _fmt_obj(result.get("objective")), _fmt_time(result.get("time"))]
        cells += [f"{row['scores'].get(k, 0.0):.2f}" for k in solver_keys]
        lines.append("| " + " | ".join(cells) + " |")
    summary = totals(rows, solver_keys)
    lines += ["", "| totals | " + " | ".join(LABELS.get(k, k) for k in solver_keys) + " |", "|---|" + "---|" * len(solver_keys)]

    def line(label, field, fmt="{}"):
        lines.append(f"| {label} | " + " | ".join(fmt.format(summary[k][field]) for k in solver_keys) + " |")

    line("entries", "entries")
    line("proven (optimal + unsat + satisfaction solved)", "proven")
    line("&nbsp;&nbsp;optimal", "optimal")
    line("&nbsp;&nbsp;unsatisfiable", "unsatisfiable")
    line("&nbsp;&nbsp;satisfaction solved", "solved_satisfaction")
    line("unproven solutions (optimisation)", "feasible_unproven")
    line("unknown", "unknown")
    line("ERROR", "error")
    line("WRONG", "wrong")
    line("MiniZinc Challenge score", "score", "{:.2f}")
    lines.append("| instances won on score | " + " | ".join(str(summary["wins"][k]) for k in solver_keys) + " |")
    line("total time, s", "time_total", "{:.1f}")
    lines.append(
        f"| time on the {summary['commonly_proven']} instances all proved, s | "
        + " | ".join(f"{summary[k]['time_on_commonly_proven']:.1f}" for k in solver_keys)
        + " |"
    )
    return "\n".join(lines)


def versions() -> dict:
    out = {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()}
    for package in ("cpmpy", "ortools", "rcsp", "numpy"):
        try:
            from importlib.metadata import version

            out[package] = version(package)
        except Exception:  # noqa: BLE001
            out[package] = None
    return out


# ---------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per solver per model (default 20)")
    parser.add_argument("--out", type=Path, default=None, help="where to write the JSON results")
    parser.add_argument("--models", type=Path, default=DEFAULT_MODELS, help="the models directory (default bench/models)")
    parser.add_argument("--only", nargs="+", default=None, metavar="NAME", help="entries or modules to run (globs allowed)")
    parser.add_argument("--solvers", nargs="+", default=list(SOLVERS), choices=list(SOLVERS), help="solvers to run (default both)")
    parser.add_argument("--list", action="store_true", help="list the entries and exit")
    parser.add_argument("--markdown", type=Path, default=None, help="also write the table to this file")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--solver", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    models_dir = args.models.resolve()

    if args.worker:
        result = worker(models_dir, args.worker, args.solver, args.time_limit)
        print(RESULT_MARK + json.dumps(result, default=str), flush=True)
        return 0

    entries = select(discover(models_dir), args.only)
    if args.list:
        for entry in entries:
            print(f"{entry['name']:50s} {entry['source']}")
        print(f"{len(entries)} entries")
        return 0
    if not entries:
        print("no entries selected", file=sys.stderr)
        return 2

    meta = {
        "time_limit": args.time_limit,
        "hard_limit": args.time_limit + GRACE,
        "solvers": {k: {"cpmpy_solver": SOLVERS[k][0], "options": SOLVERS[k][1]} for k in args.solvers},
        "command": " ".join([Path(sys.argv[0]).name] + sys.argv[1:]),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "versions": versions(),
        "score": "MiniZinc Challenge, as examples/mzn-bench/score.rs",
    }
    rows = []
    for number, entry in enumerate(entries, 1):
        results = {}
        for key in args.solvers:
            results[key] = run_one(models_dir, entry, key, args.time_limit)
        first = next((r for r in results.values() if "kind" in r), {})
        kind = first.get("kind", "satisfy")
        cross_check(results, kind)
        row = {
            "name": entry["name"],
            "module": entry["module"],
            "instance": entry["instance"],
            "source": entry["source"],
            "kind": kind,
            "n_vars": first.get("n_vars"),
            "n_constraints": first.get("n_constraints"),
            "results": results,
        }
        row["scores"] = scores(results, kind, args.time_limit)
        rows.append(row)
        progress = "  ".join(
            f"{LABELS.get(k, k)}: {_fmt_status(r, kind)} {_fmt_obj(r.get('objective'))} {_fmt_time(r.get('time'))}s"
            for k, r in results.items()
        )
        print(f"[{number}/{len(entries)}] {entry['name']}: {progress}", file=sys.stderr, flush=True)
        for key, result in results.items():
            for error in result.get("errors", []) + result.get("wrong", []):
                last = "\n".join(str(error).strip().splitlines()[-3:])
                print(f"    {LABELS.get(key, key)}: {last}", file=sys.stderr, flush=True)
        if args.out:
            _write(args.out, meta, rows, args.solvers)

    table = markdown(rows, args.solvers, args.time_limit)
    print(table)
    if args.markdown:
        args.markdown.write_text(table + "\n")
    if args.out:
        _write(args.out, meta, rows, args.solvers, finished=True)
    return 0


def _write(path: Path, meta: dict, rows: list[dict], solver_keys: list[str], finished=False) -> None:
    data = dict(meta, finished=finished, entries=rows, totals=totals(rows, solver_keys))
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1, default=str) + "\n")
    temporary.replace(path)


if __name__ == "__main__":
    sys.exit(main())
