#!/usr/bin/env python
"""rcsp.cluster measured on this machine: an N-queens count on one and on two local Dask workers,
what a task costs beyond its work, and the split-tree search's speed-up on FlatZinc instances.

    python bench/cluster.py [--n 16] [--shards 64] [--repeat 3] [--fzn golomb10.fzn ms_u4.fzn] \
        [--out results.json]

Every configuration runs on a ``LocalCluster`` of worker processes, one thread each, started once
per worker count (its start-up is not timed) and used ``--repeat`` times; the median wall-clock time
of the driver's call is reported. The count's answer is checked against the local counter's, and
each search's answer against the sequential search's (same status, same optimum, same number of
solutions), so that a fast wrong answer cannot pass for a speed-up.

- **Count**: ``rcsp.queens_count(n, threads=1)`` in this process (the counter on one thread, no
  Dask), then ``cluster.count(n, shards=K)`` on one worker and on two. The speed-up is one worker's
  time over two workers'.
- **Per-task overhead**: on one worker, (wall time − the sum of the tasks' counting time) / tasks,
  for the count above and for a count of tiny shards (n = 12, 256 shards, ~0.1 ms of work each).
- **The machine's ceiling**: the same work as two plain processes at once against one (no Dask),
  reported beside each speed-up, since this 2-core machine is shared and its second core does not
  always give a second core's worth.
- **Split-tree search**: each ``--fzn`` file searched in this process by the same search the
  subproblems use (``FlatZincModel.solve_subproblem([])``: the whole tree, no split), then by
  ``cluster.search`` on one worker and on two (30 subproblems per worker thread by default, or
  ``--subproblems``). Satisfaction problems are searched for every solution (``mode="all"``), so
  that the whole tree is searched whatever the order; optimisation problems to a proven optimum.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from dask.distributed import Client, LocalCluster

import rcsp
from rcsp import _native
from rcsp import cluster as rc


def machine_ceiling(code):
    """What two cores give this work without Dask: the same Python ``code`` as one process, then
    as two at once; ``2 × one / two`` is the most any two workers can reach (2 on two idle cores,
    less when the machine is shared or the work contends for memory)."""
    command = [sys.executable, "-c", code]
    started = time.perf_counter()
    subprocess.run(command, check=True)
    one = time.perf_counter() - started
    started = time.perf_counter()
    for process in [subprocess.Popen(command) for _ in range(2)]:
        process.wait()
    two = time.perf_counter() - started
    return {"one_process_s": one, "two_at_once_s": two, "ceiling": 2 * one / two}


def median_time(work, repeat):
    times, answer = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        answer = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), times, answer


def bench_count(clients, n, shards, repeat):
    local = rcsp.queens_count(n, threads=1)
    local_time, local_times, _ = median_time(lambda: rcsp.queens_count(n, threads=1), repeat)
    out = {"n": n, "shards": shards, "solutions": local["solutions"], "local_1_thread": local_times}
    for workers, client in clients.items():
        t, times, result = median_time(lambda c=client: rc.count(n, c, shards=shards), repeat)
        assert result.complete and result.solutions == local["solutions"], result
        assert result.unique == local["unique"], result
        out[f"workers_{workers}"] = times
        if workers == 1:
            out["overhead_per_task_s"] = (result.seconds - sum(result.task_seconds)) / shards
            out["task_seconds_median"] = statistics.median(result.task_seconds)
            out["task_seconds_max"] = max(result.task_seconds)
        print(f"count n = {n}, {shards} shards, {workers} worker(s): {t:.3f} s (median of {times})")
    print(f"count n = {n}, local counter on one thread: {local_time:.3f} s")
    one, two = statistics.median(out["workers_1"]), statistics.median(out["workers_2"])
    out["speedup_2_over_1"] = one / two
    out["machine"] = machine_ceiling(f"import rcsp; rcsp.queens_count({n}, threads=1)")
    print(f"speed-up, two workers over one: {one / two:.2f}x "
          f"(two plain processes at once: {out['machine']['ceiling']:.2f}x)")
    print(f"per-task overhead (1 worker, n = {n}): {out['overhead_per_task_s'] * 1e3:.2f} ms")
    return out


def bench_tiny_tasks(client, repeat):
    shards = 256
    t, times, result = median_time(lambda: rc.count(12, client, shards=shards), repeat)
    assert result.solutions == 14200
    per_task = (result.seconds - sum(result.task_seconds)) / shards
    print(f"count n = 12, {shards} shards, 1 worker: {t:.3f} s, {per_task * 1e3:.2f} ms per task beyond its work")
    return {"n": 12, "shards": shards, "times": times, "overhead_per_task_s": per_task,
            "wall_per_task_s": t / shards}


def bench_search(clients, path, subproblems, repeat, time_limit):
    text = Path(path).read_text()
    model = _native.FlatZincModel(text)
    mode = "best" if model.objective else "all"
    seq_time, seq_times, seq = median_time(
        lambda: model.solve_subproblem([], mode=mode, time_limit=time_limit), repeat
    )
    assert seq["complete"], f"{path}: the sequential search did not finish in {time_limit} s"
    out = {"file": str(path), "mode": mode, "sequential": seq_times,
           "objective": seq["objective"], "solutions": seq["solutions"], "nodes": seq["nodes"]}
    print(f"{Path(path).name} ({mode}): sequential {seq_time:.3f} s, {seq['nodes']} nodes")
    for workers, client in clients.items():
        t, times, found = median_time(
            lambda c=client: rc.search(Path(path), c, mode=mode, subproblems=subproblems,
                                       time_limit=time_limit),
            repeat,
        )
        assert found.finished == found.subproblems, found
        if mode == "best":
            assert found.status == "OPTIMAL" and found.objective == seq["objective"], found
        else:
            assert found.solutions == seq["solutions"], found
        out[f"workers_{workers}"] = times
        out[f"workers_{workers}_subproblems"] = found.subproblems
        out[f"workers_{workers}_nodes"] = found.nodes
        print(f"  {workers} worker(s): {t:.3f} s, {found.subproblems} subproblems, "
              f"{found.nodes} nodes (median of {[round(x, 3) for x in times]})")
    one, two = statistics.median(out["workers_1"]), statistics.median(out["workers_2"])
    out["speedup_2_over_1"] = one / two
    out["speedup_2_over_sequential"] = seq_time / two
    out["machine"] = machine_ceiling(
        "from rcsp import _native; "
        f"_native.FlatZincModel(open({str(path)!r}).read()).solve_subproblem([], mode={mode!r})"
    )
    print(f"  speed-up: two workers over one {one / two:.2f}x, over sequential {seq_time / two:.2f}x "
          f"(two plain sequential searches at once: {out['machine']['ceiling']:.2f}x)")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--shards", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fzn", nargs="*", default=[])
    parser.add_argument("--subproblems", type=int, default=None)
    parser.add_argument("--time-limit", type=float, default=300)
    parser.add_argument("--out")
    args = parser.parse_args()
    results = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                           "platform": platform.platform()}}
    clusters = {w: LocalCluster(n_workers=w, threads_per_worker=1, processes=True, silence_logs=logging.ERROR,
                                dashboard_address=":0") for w in (1, 2)}
    clients = {w: Client(c) for w, c in clusters.items()}
    try:
        for client in clients.values():
            # Workers import rcsp once, before anything is timed.
            client.run(lambda: __import__("rcsp.cluster"))
        results["count"] = bench_count(clients, args.n, args.shards, args.repeat)
        results["tiny_tasks"] = bench_tiny_tasks(clients[1], args.repeat)
        results["search"] = [
            bench_search(clients, path, args.subproblems, args.repeat, args.time_limit)
            for path in args.fzn
        ]
    finally:
        for client in clients.values():
            client.close()
        for cluster in clusters.values():
            cluster.close()
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
