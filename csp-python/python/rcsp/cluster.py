"""Counts and searches past one machine, on a Dask cluster.

Two jobs, both handed out by Dask distributed (its scheduler balances the tasks, re-runs those of a
worker that dies, and runs the same code on one machine's ``LocalCluster``, on ``dask scheduler`` and
``dask worker`` processes anywhere, or on Slurm/PBS through dask-jobqueue):

* :func:`count` counts N-queens exactly, split into many more shards than workers (for balance).
  Each task returns its shard's result as the text of the counter's own shard-result file; the
  driver writes each to a checkpoint directory as it arrives, merges them with the counter's merge
  (the same totals, the essentially distinct solutions included), and on a restart runs only the
  shards not yet done. A shard whose result arrives twice is counted once.
* :func:`search` searches any model the engine runs (an ``rcsp.Model``, FlatZinc text or a
  ``.fzn`` file) as embarrassingly parallel search (Malapert, Régin & Rezgui, *Embarrassingly
  Parallel Search in Constraint Programming*, JAIR 57, 2016): the driver splits the search tree
  into subproblems with the engine's own brancher, each shipped as its list of decisions beside the
  model (which each worker compiles once and keeps), and combines their answers: every solution
  counted, the first solution, or the best objective, with the best bound known handed to each
  task as it starts. Optimality, or that there is no solution, is claimed only once every
  subproblem is searched through.

A worker that raises is reported with its shard or subproblem and the error; a time limit is an
absolute deadline every task and the driver keep (so the machines' clocks should agree, as NTP
keeps them). Dask is an optional dependency: ``pip install 'rcsp[cluster]'``.

From the command line::

    python -m rcsp.cluster count 16 --scheduler tcp://host:8786 --shards 64 --checkpoint q16
    python -m rcsp.cluster search model.fzn --scheduler tcp://host:8786
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

try:
    from dask.distributed import Client, as_completed, get_worker
    from distributed import TimeoutError as _DaskTimeout
except ImportError as _error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "rcsp.cluster needs Dask distributed: pip install 'rcsp[cluster]' "
        "(or pip install 'dask[distributed]')"
    ) from _error

from rcsp import _native

__all__ = [
    "ClusterCount",
    "ClusterSearch",
    "ShardDone",
    "TaskFailed",
    "count",
    "main",
    "merge_shard_results",
    "search",
]

# The native calls the tasks make, looked up when a task runs, so that a test can put a fault in
# front of them on the workers (a worker plugin replacing them).
_count_shard = _native.queens_count_shard

#: Subproblems made per worker thread when :func:`search` is not told how many: Malapert, Régin &
#: Rezgui (2016) found 30 per worker a good balance of load against the cost of splitting.
SUBPROBLEMS_PER_WORKER = 30

#: Shards made per worker thread when :func:`count` is not told how many (and the count has enough
#: subproblems): enough that a worker finishing early finds more to do.
SHARDS_PER_WORKER = 16

#: How long the driver waits past a deadline for the tasks that stop at it to report.
_DEADLINE_GRACE = 2.0

_SHARD_FILE = re.compile(r"^shard-(\d+)-of-(\d+)\.json$")


class TaskFailed(RuntimeError):
    """A task of a cluster count or search failed: its message names the shard or subproblem, the
    worker, and the error (the original is its ``__cause__`` when the driver has it)."""


class _WorkerError(RuntimeError):
    """Raised on a worker in place of a task's error, its message naming the task and the worker;
    one string argument, so that it crosses back to the driver as any exception does."""


def _where() -> str:
    """The address of the worker running the current task, or ``"the driver"`` outside one."""
    try:
        return get_worker().address
    except ValueError:
        return "the driver"


def _client(cluster: Any) -> tuple[Client, bool]:
    """A client of ``cluster`` (a ``Client``, a scheduler address, or a cluster object such as
    ``LocalCluster``), and whether it was made here (and so is closed here)."""
    if isinstance(cluster, Client):
        return cluster, False
    if cluster is None:
        raise ValueError(
            "give a cluster: a dask.distributed Client, a scheduler address such as "
            "'tcp://127.0.0.1:8786', or a cluster object such as LocalCluster()"
        )
    return Client(cluster), True


def _threads(client: Client) -> int:
    """The worker threads the cluster has now (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def _deadline(time_limit: float | None) -> float | None:
    if time_limit is None:
        return None
    if not (isinstance(time_limit, (int, float)) and 0 < time_limit < float("inf")):
        raise ValueError("time_limit must be a positive number of seconds")
    return time.time() + float(time_limit)


def _remaining(deadline: float | None) -> float | None:
    """Seconds to ``deadline`` (wall-clock, ``time.time()``), or None without one."""
    return None if deadline is None else deadline - time.time()


def _write_atomically(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` through a temporary file beside it, flushed to disk and renamed
    over it, so that a driver killed at any moment leaves the old file or the new one."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


# --- Counting -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShardDone:
    """One shard's result as it arrives at the driver (what ``count``'s ``on_shard`` is given)."""

    index: int
    of: int
    solutions: int
    seconds: float
    worker: str


@dataclass
class ClusterCount:
    """What :func:`count` did. ``solutions`` is the exact total once ``complete``; before that, the
    sum over the finished shards (and ``unique`` and ``nodes`` are None)."""

    n: int
    kind: str
    shards: int
    subproblems: int
    complete: bool
    solutions: int
    unique: int | None
    nodes: int | None
    #: The shards this call counted (not those its checkpoint already held), in order of arrival.
    ran: list[int] = field(default_factory=list)
    #: How many shards the checkpoint already held.
    resumed: int = 0
    #: Results that arrived for a shard already done, ignored (each shard is counted once).
    duplicates: int = 0
    #: Each shard's counting time on its worker, in order of arrival.
    task_seconds: list[float] = field(default_factory=list)
    #: Wall-clock time of the whole call.
    seconds: float = 0.0


def _count_task(
    n: int, index: int, of: int, kind: str, threads: int, deadline: float | None
) -> dict:
    """One shard, on a worker: its result as the text of a shard-result file."""
    started = time.time()
    try:
        limit = _remaining(deadline)
        if limit is not None and limit <= 0:
            return {"index": index, "complete": False, "result": None, "seconds": 0.0}
        report = dict(_count_shard(n, index, of, kind, threads, limit))
    except BaseException as error:  # noqa: BLE001 - every failure is reported with its shard
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        raise _WorkerError(
            f"shard {index}/{of} of the {kind} count of n = {n} failed on worker {_where()}: "
            f"{type(error).__name__}: {error}"
        ) from error
    report["index"] = index
    report["worker"] = _where()
    report["wall"] = time.time() - started
    return report


def _shard_path(directory: Path, index: int, of: int) -> Path:
    return directory / f"shard-{index:05d}-of-{of:05d}.json"


def _load_checkpoint(directory: Path, n: int, kind: str) -> tuple[int | None, dict[int, str]]:
    """The shards a checkpoint directory holds, each checked by the counter (format, checksum,
    counts that add up) and against this count: their number of shards, and index → text."""
    of: int | None = None
    done: dict[int, str] = {}
    for path in sorted(directory.iterdir()):
        match = _SHARD_FILE.match(path.name)
        if not match:
            continue
        text = path.read_text(encoding="utf-8")
        info = _native.queens_shard_info(text, str(path))
        if info["n"] != n or info["kind"] != kind:
            raise ValueError(
                f"{path} is a shard of the {info['kind']} count of n = {info['n']}, not of the "
                f"{kind} count of n = {n}: give another checkpoint directory"
            )
        if of is not None and info["of"] != of:
            raise ValueError(
                f"{directory} holds shards of {of} and of {info['of']}: one count's shards only"
            )
        if (info["index"], info["of"]) != (int(match[1]), int(match[2])):
            raise ValueError(f"{path} holds shard {info['index']}/{info['of']}, not its name's")
        if not info["complete"]:
            raise ValueError(f"{path} is an unfinished shard; delete it to count it again")
        of = info["of"]
        done[info["index"]] = text
    return of, done


def merge_shard_results(texts: list[str]) -> dict:
    """Merges shard-result texts with the counter's merge, each shard once: a shard given more
    than once (a task run twice) counts once, and must have the same result each time. Returns the
    merge's dict (``solutions``, ``unique``, ``nodes``, ``shards``, …)."""
    by_index: dict[int, str] = {}
    for text in texts:
        info = _native.queens_shard_info(text)
        index = info["index"]
        if index in by_index:
            _same_result(by_index[index], text, index, info["of"])
            continue
        by_index[index] = text
    return _native.queens_merge_shards([by_index[i] for i in sorted(by_index)])


def _same_result(kept: str, again: str, index: int, of: int) -> None:
    """Refuses a second result of a shard that differs from the first: the counter is
    deterministic, so a difference is a fault (a changed build, a damaged machine)."""
    if json.loads(kept) != json.loads(again):
        raise TaskFailed(
            f"shard {index}/{of} was counted twice with different results; the counter is "
            f"deterministic, so one of the machines is faulty"
        )


def count(
    n: int,
    cluster: Any,
    *,
    shards: int | None = None,
    kind: str = "solutions",
    checkpoint: str | os.PathLike | None = None,
    time_limit: float | None = None,
    threads_per_task: int = 1,
    on_shard: Callable[[ShardDone], Any] | None = None,
) -> ClusterCount:
    """Counts N-queens (``kind``: ``"solutions"``, with the essentially distinct ones,
    ``"nodes"`` or ``"torus"``) on ``cluster``: a ``Client``, a scheduler address or a cluster
    object.

    The count is split into ``shards`` shards (by default 16 per worker thread, at most one per
    subproblem of the count), one task each. With ``checkpoint`` (a directory, made if need be),
    each shard's result is written there as it arrives, in the counter's shard-result format
    (``csp queens merge`` reads the files too), and a later call with the same directory counts
    only the shards it lacks; a call stopped at any moment loses only the shards in flight.
    ``time_limit`` (seconds) is a deadline for every task and for the driver: what is unfinished
    then is left for a later call. ``on_shard`` is called with a :class:`ShardDone` as each result
    arrives (after it is checkpointed); returning ``False`` stops the count there.

    A task that raises stops the count with :class:`TaskFailed` naming its shard, its worker and
    the error; a worker that dies costs only time, as Dask runs its task again elsewhere.
    """
    started = time.time()
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    total = _native.queens_subproblems(n, kind)
    if not isinstance(threads_per_task, int) or threads_per_task < 1:
        raise ValueError("threads_per_task must be an int of at least 1")
    deadline = _deadline(time_limit)
    directory = None if checkpoint is None else Path(checkpoint)
    done: dict[int, str] = {}
    saved_of = None
    if directory is not None:
        if directory.exists() and not directory.is_dir():
            raise ValueError(f"checkpoint {directory} is not a directory")
        directory.mkdir(parents=True, exist_ok=True)
        saved_of, done = _load_checkpoint(directory, n, kind)
    if shards is not None:
        if not isinstance(shards, int) or isinstance(shards, bool) or shards < 1:
            raise ValueError("shards must be an int of at least 1")
        if shards > total:
            raise ValueError(
                f"the {kind} count of n = {n} has {total} subproblems: give at most {total} shards"
            )
        if saved_of is not None and saved_of != shards:
            raise ValueError(
                f"checkpoint {directory} holds shards of {saved_of}, not {shards}: give "
                f"--shards {saved_of}, or another directory"
            )
    client, own = _client(cluster)
    try:
        of = shards or saved_of or min(total, SHARDS_PER_WORKER * _threads(client))
        resumed = len(done)
        result = ClusterCount(
            n=n, kind=kind, shards=of, subproblems=total, complete=False,
            solutions=0, unique=None, nodes=None, resumed=resumed,
        )
        pending = [i for i in range(of) if i not in done]
        token = uuid.uuid4().hex[:12]
        futures = {
            client.submit(
                _count_task, n, i, of, kind, threads_per_task, deadline,
                key=f"rcsp-count-{n}-{kind}-{i}-of-{of}-{token}", pure=False,
            ): i
            for i in pending
        }
        timeout = None if deadline is None else max(0.0, _remaining(deadline)) + _DEADLINE_GRACE
        stopped = False
        try:
            for future in as_completed(list(futures), timeout=timeout):
                index = futures[future]
                if future.status == "error":
                    error = future.exception()
                    raise TaskFailed(_failure(f"shard {index}/{of}", error)) from error
                report = future.result()
                if not report["complete"]:
                    continue  # stopped at the deadline: left for a later call
                text = report["result"]
                if index in done:
                    _same_result(done[index], text, index, of)
                    result.duplicates += 1
                    continue
                info = _native.queens_shard_info(text, f"the task of shard {index}/{of}")
                if (info["n"], info["kind"], info["index"], info["of"]) != (n, kind, index, of):
                    raise TaskFailed(f"the task of shard {index}/{of} returned another shard")
                if directory is not None:
                    _write_atomically(_shard_path(directory, index, of), text)
                done[index] = text
                result.ran.append(index)
                result.task_seconds.append(report["seconds"])
                if on_shard is not None and on_shard(
                    ShardDone(index, of, int(info["solutions"]), report["seconds"], report["worker"])
                ) is False:
                    stopped = True
                    break
        except _DaskTimeout:
            pass  # the deadline: what is finished is kept, the rest left for a later call
        finally:
            client.cancel([f for f in futures if not f.done()])
        if len(done) == of and not stopped:
            merged = _native.queens_merge_shards([done[i] for i in range(of)])
            result.complete = True
            result.solutions = int(merged["solutions"])
            result.unique = merged["unique"]
            result.nodes = merged["nodes"]
            if directory is not None:
                summary = {k: merged[k] for k in ("n", "kind", "shards", "subproblems", "solutions", "unique", "nodes")}
                _write_atomically(directory / "merged.json", json.dumps(summary, indent=1) + "\n")
        else:
            result.solutions = sum(
                int(_native.queens_shard_info(text)["solutions"]) for text in done.values()
            )
        result.seconds = time.time() - started
        return result
    finally:
        if own:
            client.close()


def _failure(what: str, error: BaseException | None) -> str:
    """The message of a failed task: its shard or subproblem, and what went wrong (a worker's
    error names the worker; a task that killed its workers is said so)."""
    name = type(error).__name__
    if name == "KilledWorker":
        return f"{what} was lost with every worker that ran it ({error}); it may crash its workers"
    if isinstance(error, _WorkerError):
        return str(error)
    return f"{what} failed: {name}: {error}"


# --- Split-tree search ------------------------------------------------------------------------

# The compiled models a worker keeps, by the digest of their text: each of the many subproblems of
# one model then costs only its search. A few models at once, the least recently used dropped.
_MODELS: OrderedDict[str, Any] = OrderedDict()
_MODELS_KEPT = 4
_MODELS_LOCK = threading.Lock()


def _compiled(digest: str, text: str) -> Any:
    """The worker's compiled model of ``text``, compiled on first use."""
    with _MODELS_LOCK:
        model = _MODELS.get(digest)
        if model is not None:
            _MODELS.move_to_end(digest)
            return model
    model = _native.FlatZincModel(text)
    with _MODELS_LOCK:
        _MODELS[digest] = model
        while len(_MODELS) > _MODELS_KEPT:
            _MODELS.popitem(last=False)
    return model


def _search_task(
    text: str,
    digest: str,
    fingerprint: str,
    index: int,
    decisions: list,
    mode: str,
    bound: int | None,
    deadline: float | None,
    free_search: bool,
    keep_solutions: bool,
) -> dict:
    """One subproblem, on a worker."""
    try:
        limit = _remaining(deadline)
        if limit is not None and limit <= 0:
            return {"index": index, "complete": False, "solutions": 0, "objective": None,
                    "solution": None, "output": None, "nodes": 0, "seconds": 0.0}
        model = _compiled(digest, text)
        if model.fingerprint != fingerprint:
            raise ValueError(
                "this worker compiled the model differently from the driver (another build of "
                "rcsp?), so the subproblem's decisions do not apply"
            )
        report = dict(model.solve_subproblem(
            decisions, mode=mode, bound=bound, time_limit=limit,
            free_search=free_search, keep_solutions=keep_solutions,
        ))
    except BaseException as error:  # noqa: BLE001 - every failure is reported with its subproblem
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        raise _WorkerError(
            f"subproblem {index} failed on worker {_where()}: {type(error).__name__}: {error}"
        ) from error
    report["index"] = index
    report["worker"] = _where()
    return report


@dataclass
class ClusterSearch:
    """What :func:`search` found. ``status`` as ``rcsp`` reports it: ``"OPTIMAL"`` (every
    subproblem searched through: the best objective is optimal, or every solution was counted),
    ``"FEASIBLE"`` (a solution, without that proof), ``"UNSATISFIABLE"`` (every subproblem
    searched through and none holds a solution) or ``"UNKNOWN"``."""

    status: str
    mode: str
    #: Solutions found: every one under ``"all"``; under ``"best"``, the improving ones.
    solutions: int
    objective: int | None
    #: The best (or first) solution: each printed FlatZinc item by name (for an ``rcsp.Model``,
    #: its variables are ``X0``, ``X1``, … in order of declaration); None without one.
    solution: dict | None
    #: That solution as FlatZinc prints it.
    output: str | None
    #: For an ``rcsp.Model``: the solution's values of the model's variables, in order.
    values: list | None
    #: Under ``"all"`` with ``keep_solutions``: every solution, as ``solution`` is.
    all: list | None
    subproblems: int
    #: Subproblems searched through.
    finished: int
    nodes: int
    task_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0


def _model_text(model: Any) -> tuple[str, int | None]:
    """FlatZinc text of ``model`` (an ``rcsp.Model``, FlatZinc text, or a path to a ``.fzn``
    file), and the number of an ``rcsp.Model``'s variables."""
    if isinstance(model, _native.Model):
        return model.to_flatzinc(), len(model.variables)
    if isinstance(model, os.PathLike):
        return Path(model).read_text(encoding="utf-8"), None
    if isinstance(model, str):
        return model, None
    raise TypeError(
        f"search takes an rcsp.Model, FlatZinc text or a path to a .fzn file, not "
        f"{type(model).__name__}"
    )


def search(
    model: Any,
    cluster: Any,
    *,
    mode: str | None = None,
    subproblems: int | None = None,
    time_limit: float | None = None,
    free_search: bool = False,
    keep_solutions: bool = False,
    in_flight: int | None = None,
) -> ClusterSearch:
    """Searches ``model`` (an ``rcsp.Model``, FlatZinc text, or a ``pathlib.Path`` to a ``.fzn``
    file) on ``cluster`` as embarrassingly parallel search.

    ``mode``: ``"all"`` counts every solution of a satisfaction problem (``keep_solutions`` keeps
    them), ``"first"`` stops at its first, ``"best"`` finds an optimum; by default ``"best"`` under
    an objective, else ``"first"``. The tree is split into ``subproblems`` subproblems (by default
    30 per worker thread) by the engine's brancher (the model's search annotations, or free search
    with ``free_search``), searched without learning. At most ``in_flight`` tasks are out at once
    (by default twice the worker threads), so that each task starts with the best bound found by
    then. ``time_limit`` (seconds) is a deadline every task and the driver keep.
    """
    started = time.time()
    text, user_vars = _model_text(model)
    local = _native.FlatZincModel(text)
    optimising = local.objective is not None
    mode = mode or ("best" if optimising else "first")
    if mode not in ("all", "first", "best"):
        raise ValueError(f"unknown mode {mode!r}: all, first or best")
    if optimising != (mode == "best"):
        raise ValueError(
            f"mode {mode!r} does not fit the model: 'best' is for a model with an objective, "
            f"'all' and 'first' for one without"
        )
    for name, value in (("subproblems", subproblems), ("in_flight", in_flight)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise ValueError(f"{name} must be an int of at least 1")
    deadline = _deadline(time_limit)
    maximise = local.objective == "maximize"
    client, own = _client(cluster)
    try:
        threads = _threads(client)
        target = subproblems or SUBPROBLEMS_PER_WORKER * threads
        parts = local.split(target, free_search)
        digest = hashlib.sha256(text.encode()).hexdigest()
        # The model's text goes to every worker once, not with each task.
        shared_text = client.scatter(text, broadcast=True, hash=False)
        token = uuid.uuid4().hex[:12]
        best: dict | None = None
        everything: list | None = [] if keep_solutions and mode == "all" else None
        found = finished = nodes = 0
        task_seconds: list[float] = []
        next_part = 0
        futures: dict[Any, int] = {}

        def better(a: int, b: int | None) -> bool:
            return b is None or (a > b if maximise else a < b)

        def submit() -> Any:
            nonlocal next_part
            index = next_part
            next_part += 1
            bound = best["objective"] if (best is not None and mode == "best") else None
            future = client.submit(
                _search_task, shared_text, digest, local.fingerprint, index, parts[index],
                mode, bound, deadline, free_search, keep_solutions,
                key=f"rcsp-search-{index}-{token}", pure=False,
            )
            futures[future] = index
            return future

        window = in_flight or 2 * threads
        first = [submit() for _ in range(min(window, len(parts)))]
        timeout = None if deadline is None else max(0.0, _remaining(deadline)) + _DEADLINE_GRACE
        queue = as_completed(first, timeout=timeout)
        try:
            for future in queue:
                index = futures[future]
                if future.status == "error":
                    error = future.exception()
                    raise TaskFailed(_failure(f"subproblem {index} of {len(parts)}", error)) from error
                report = future.result()
                task_seconds.append(report["seconds"])
                nodes += report["nodes"]
                found += report["solutions"]
                finished += bool(report["complete"])
                if everything is not None and report.get("all") is not None:
                    everything.extend(report["all"])
                if report["solution"] is not None and (
                    best is None or (mode == "best" and better(report["objective"], best["objective"]))
                ):
                    best = report
                if mode == "first" and best is not None:
                    break
                if next_part < len(parts) and (deadline is None or _remaining(deadline) > 0):
                    queue.add(submit())
        except _DaskTimeout:
            pass  # the deadline: the answer is what was found by then
        finally:
            client.cancel([f for f in futures if not f.done()])
        everything_done = finished == len(parts)
        if best is None:
            status = "UNSATISFIABLE" if everything_done else "UNKNOWN"
        elif mode == "first":
            status = "FEASIBLE"
        else:
            status = "OPTIMAL" if everything_done else "FEASIBLE"
        solution = None if best is None else best["solution"]
        values = None
        if solution is not None and user_vars is not None:
            values = [solution[f"X{i}"] for i in range(user_vars)]
        return ClusterSearch(
            status=status, mode=mode, solutions=found,
            objective=None if best is None else best["objective"],
            solution=solution, output=None if best is None else best["output"],
            values=values, all=everything, subproblems=len(parts), finished=finished,
            nodes=nodes, task_seconds=task_seconds, seconds=time.time() - started,
        )
    finally:
        if own:
            client.close()


# --- Command line -----------------------------------------------------------------------------


def _connect(args: argparse.Namespace) -> tuple[Any, Any]:
    """The cluster the command line names: a scheduler's address, or a local cluster of
    ``--local`` worker processes (one thread each); and the local cluster to close, if any."""
    if args.scheduler:
        return args.scheduler, None
    from dask.distributed import LocalCluster

    local = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True)
    return local, local


def main(argv: list[str] | None = None) -> int:
    """``python -m rcsp.cluster count N …`` or ``python -m rcsp.cluster search FILE.fzn …``."""
    parser = argparse.ArgumentParser(prog="python -m rcsp.cluster", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("count", "search"):
        sub = commands.add_parser(name)
        where = sub.add_mutually_exclusive_group()
        where.add_argument("--scheduler", help="the scheduler's address, e.g. tcp://host:8786")
        where.add_argument("--local", type=int, default=2,
                           help="without --scheduler: local worker processes (default 2)")
        sub.add_argument("--time-limit", type=float, help="seconds, for the whole run")
        if name == "count":
            sub.add_argument("n", type=int, help="the board size")
            sub.add_argument("--shards", type=int, help="shards (default: 16 per worker thread)")
            sub.add_argument("--kind", default="solutions", choices=["solutions", "nodes", "torus"])
            sub.add_argument("--checkpoint", help="directory of shard results, to resume from")
        else:
            sub.add_argument("model", type=Path, help="a FlatZinc file")
            sub.add_argument("--subproblems", type=int, help="default: 30 per worker thread")
            sub.add_argument("--all", action="store_true", help="count every solution")
            sub.add_argument("--free-search", action="store_true")
    args = parser.parse_args(argv)
    cluster, local = _connect(args)
    try:
        return _run(args, cluster)
    except (ValueError, TypeError, OSError, TaskFailed) as error:
        # A bad argument, an unreadable file or a failed task: one line, not a traceback.
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        if local is not None:
            local.close()


def _run(args: argparse.Namespace, cluster: Any) -> int:
    """The command ``args`` names, on ``cluster``."""
    if args.command == "count":
        def progress(done: ShardDone) -> None:
            print(f"shard {done.index}/{done.of}: {done.solutions} solutions in "
                  f"{done.seconds:.2f} s on {done.worker}", file=sys.stderr, flush=True)

        result = count(args.n, cluster, shards=args.shards, kind=args.kind,
                       checkpoint=args.checkpoint, time_limit=args.time_limit, on_shard=progress)
        print(json.dumps({
            "n": result.n, "kind": result.kind, "complete": result.complete,
            "solutions": result.solutions, "unique": result.unique, "nodes": result.nodes,
            "shards": result.shards, "ran": len(result.ran), "resumed": result.resumed,
            "seconds": round(result.seconds, 3),
        }))
        return 0 if result.complete else 3
    found = search(args.model, cluster, mode="all" if args.all else None,
                   subproblems=args.subproblems, time_limit=args.time_limit,
                   free_search=args.free_search)
    if found.output is not None:
        print(found.output, end="")
        print("----------")
    print(json.dumps({
        "status": found.status, "objective": found.objective, "solutions": found.solutions,
        "subproblems": found.subproblems, "finished": found.finished,
        "seconds": round(found.seconds, 3),
    }))
    return 0


if __name__ == "__main__":
    # Run as the installed module, not as ``__main__``, so that the tasks Dask ships name
    # ``rcsp.cluster``'s functions, which every worker can import.
    import rcsp.cluster as _module

    sys.exit(_module.main())
