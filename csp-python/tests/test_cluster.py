"""rcsp.cluster on Dask: counts against the published sequences and the local counter, a worker
killed in the middle of a shard, a driver stopped and restarted, split-tree search against
sequential search and brute force on random models (fixed seeds), faults reported with their task,
time limits, and a real cluster of separate processes over the loopback address."""

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

from distributed import Client, LocalCluster, WorkerPlugin  # noqa: E402

import rcsp  # noqa: E402
from rcsp import cluster as rc  # noqa: E402

# The fault plugins below are defined here; the workers cannot import this file, so it travels by
# value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

# OEIS A000170 (all solutions) and A002562 (essentially distinct), n = 1..14.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]


def local_cluster():
    return LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )


@pytest.fixture(scope="module")
def client():
    with local_cluster() as cluster, Client(cluster) as c:
        yield c


# --- Counting -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(8, 15))
def test_cluster_counts_equal_the_published_sequences_and_the_local_counter(client, n):
    shards = min(rcsp._native.queens_subproblems(n), 24)
    result = rc.count(n, client, shards=shards)
    assert result.complete
    assert result.shards == shards
    assert sorted(result.ran) == list(range(shards))
    assert result.solutions == A000170[n - 1]
    assert result.unique == A002562[n - 1]
    local = rcsp.queens_count(n)
    assert (result.solutions, result.unique) == (local["solutions"], local["unique"])


def test_by_default_many_more_shards_than_workers(client):
    result = rc.count(11, client)
    # 16 shards per worker thread, two threads.
    assert result.shards == 32
    assert result.solutions == A000170[10]
    assert result.unique == A002562[10]


def test_the_other_kinds_merge_to_the_local_counts(client):
    for kind, n in (("torus", 13), ("nodes", 11)):
        result = rc.count(n, client, shards=12, kind=kind)
        local = rcsp.queens_count(n, kind=kind)
        assert result.complete
        assert (result.solutions, result.nodes) == (local["solutions"], local["nodes"])


def test_a_restarted_driver_counts_only_the_remaining_shards(client, tmp_path):
    n, shards = 13, 20
    arrived = []

    def stop_after_five(done):
        arrived.append(done.index)
        return len(arrived) < 5

    first = rc.count(n, client, shards=shards, checkpoint=tmp_path, on_shard=stop_after_five)
    assert not first.complete and first.unique is None
    assert sorted(first.ran) == sorted(arrived) and len(first.ran) == 5
    saved = sorted(p.name for p in tmp_path.glob("shard-*.json"))
    assert saved == [f"shard-{i:05d}-of-{shards:05d}.json" for i in sorted(first.ran)]
    # The partial sum is the sum of the saved shards, as the local counter counts them.
    assert first.solutions == sum(
        rcsp.queens_count(n, shard=(i, shards))["solutions"] for i in first.ran
    )

    second = rc.count(n, client, checkpoint=tmp_path)
    assert second.complete
    assert second.shards == shards  # taken from the checkpoint
    assert second.resumed == 5
    assert not set(second.ran) & set(first.ran)
    assert sorted(second.ran + first.ran) == list(range(shards))
    assert (second.solutions, second.unique) == (A000170[n - 1], A002562[n - 1])
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert merged["solutions"] == A000170[n - 1]

    third = rc.count(n, client, checkpoint=tmp_path)
    assert third.ran == [] and third.resumed == shards
    assert third.solutions == A000170[n - 1]


def test_a_shard_counted_twice_is_counted_once():
    texts = [rcsp._native.queens_count_shard(10, i, 4)["result"] for i in range(4)]
    merged = rc.merge_shard_results(texts + [texts[2], texts[0]])
    assert (merged["solutions"], merged["unique"]) == (A000170[9], A002562[9])
    # Without the driver's deduplication the counter's merge refuses the duplicate.
    with pytest.raises(ValueError, match="given twice"):
        rcsp._native.queens_merge_shards(texts + [texts[2]])


def test_a_checkpoint_is_checked_before_it_is_trusted(client, tmp_path):
    rc.count(10, client, shards=6, checkpoint=tmp_path)
    with pytest.raises(ValueError, match="n = 10"):
        rc.count(11, client, shards=6, checkpoint=tmp_path)
    with pytest.raises(ValueError, match="holds shards of 6"):
        rc.count(10, client, shards=8, checkpoint=tmp_path)
    shard = tmp_path / "shard-00001-of-00006.json"
    data = json.loads(shard.read_text())
    data["tally"]["solutions"] += 8
    shard.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="checksum"):
        rc.count(10, client, checkpoint=tmp_path)


def test_bad_arguments_are_refused_with_clear_errors(client, tmp_path):
    with pytest.raises(ValueError, match="n must be at least 1"):
        rc.count(0, client)
    with pytest.raises(ValueError, match="at most"):
        rc.count(8, client, shards=10_000)
    with pytest.raises(ValueError, match="unknown kind"):
        rc.count(8, client, kind="diagonals")
    with pytest.raises(ValueError, match="give a cluster"):
        rc.count(8, None)
    with pytest.raises(ValueError, match="time_limit"):
        rc.count(8, client, time_limit=-1)
    afile = tmp_path / "file"
    afile.write_text("")
    with pytest.raises(ValueError, match="not a directory"):
        rc.count(8, client, checkpoint=afile)
    with pytest.raises(TypeError, match="rcsp.Model"):
        rc.search(42, client)
    with pytest.raises(ValueError, match="does not compile"):
        rc.search("var 1..3: x; constraint nonsense(x); solve satisfy;", client)


class KillOnFirstAttempt(WorkerPlugin):
    """On the workers: the first attempt at shard `shard` starts counting, then its worker
    process dies (`os._exit`) before the result is sent; the marker file makes it happen once."""

    name = "rcsp-test-kill"

    def __init__(self, marker, shard):
        self.marker = str(marker)
        self.shard = shard

    def setup(self, worker):
        import rcsp.cluster as module

        real = module._native.queens_count_shard
        marker, shard = self.marker, self.shard

        def faulty(n, index, of, kind, threads, limit):
            if index == shard and not os.path.exists(marker):
                counting = threading.Thread(
                    target=real, args=(n, index, of, kind, threads, limit), daemon=True
                )
                counting.start()
                time.sleep(0.001)
                # Whether the shard was still being counted when its worker died.
                Path(marker).write_text(f"{os.getpid()} {counting.is_alive()}\n")
                os._exit(1)
            return real(n, index, of, kind, threads, limit)

        module._count_shard = faulty


def test_a_worker_killed_in_the_middle_of_a_shard_leaves_the_total_exact(tmp_path):
    marker = tmp_path / "killed"
    with local_cluster() as cluster, Client(cluster) as c:
        before = set(c.run(os.getpid).values())
        c.register_plugin(KillOnFirstAttempt(marker, shard=3))
        result = rc.count(14, c, shards=4, checkpoint=tmp_path / "ck")
        assert marker.exists(), "the fault was not injected"
        pid, counting = marker.read_text().split()
        assert counting == "True", "the worker died after its shard, not during it"
        killed = int(pid)
        assert killed in before
        c.wait_for_workers(2, timeout=60)
        after = set(c.run(os.getpid).values())
        assert killed not in after, "the worker process did not die"
    assert result.complete
    assert sorted(result.ran) == list(range(4))
    assert (result.solutions, result.unique) == (A000170[13], A002562[13])


class RaiseOnShard(WorkerPlugin):
    """On the workers: shard `shard` raises."""

    name = "rcsp-test-raise"

    def __init__(self, shard):
        self.shard = shard

    def setup(self, worker):
        import rcsp.cluster as module

        real = module._native.queens_count_shard
        shard = self.shard

        def faulty(n, index, of, kind, threads, limit):
            if index == shard:
                raise RuntimeError("injected fault: the disk is on fire")
            return real(n, index, of, kind, threads, limit)

        module._count_shard = faulty


def test_a_worker_that_raises_is_reported_with_its_shard_and_error(tmp_path):
    with local_cluster() as cluster, Client(cluster) as c:
        c.register_plugin(RaiseOnShard(shard=5))
        with pytest.raises(rc.TaskFailed) as failure:
            rc.count(12, c, shards=8, checkpoint=tmp_path)
    message = str(failure.value)
    assert "shard 5/8" in message
    assert "the disk is on fire" in message
    assert "tcp://" in message  # the worker it failed on
    # What finished before the failure is kept for the restart.
    kept = {p.name for p in tmp_path.glob("shard-*.json")}
    assert "shard-00005-of-00008.json" not in kept


def test_a_count_stops_at_its_time_limit(client):
    started = time.time()
    result = rc.count(19, client, shards=16, time_limit=1.0)
    elapsed = time.time() - started
    assert not result.complete
    assert result.unique is None
    # Not a speed measurement: a count of n = 19 takes minutes on two workers, and the limit
    # must end it long before (the slack is for a loaded machine).
    assert elapsed < 30, elapsed


def test_import_rcsp_works_without_dask():
    code = (
        "import sys\n"
        "sys.modules['dask'] = None\n"
        "sys.modules['distributed'] = None\n"
        "import rcsp\n"
        "assert rcsp.queens_count(8)['solutions'] == 92\n"
        "try:\n"
        "    import rcsp.cluster\n"
        "except ImportError as e:\n"
        "    assert 'rcsp[cluster]' in str(e), e\n"
        "else:\n"
        "    raise SystemExit('rcsp.cluster imported without dask')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# --- Split-tree search ------------------------------------------------------------------------


def random_model(seed, objective):
    """A small random model (fixed seed) with the same constraints as Python predicates, which
    check every solution and count the solutions by brute force."""
    rng = random.Random(seed)
    k, d = rng.randint(5, 6), rng.randint(3, 4)
    m = rcsp.Model()
    xs = m.int_vars(k, 0, d, "x")
    checks = []
    subset = rng.sample(range(k), 3)
    m += rcsp.all_different([xs[i] for i in subset])
    checks.append(lambda v, s=subset: len({v[i] for i in s}) == len(s))
    a = [rng.randint(-2, 3) for _ in range(k)]
    b = rng.randint(d, d * k // 2 + d)
    m += rcsp.linear(a, xs) <= b
    checks.append(lambda v, a=a, b=b: sum(x * y for x, y in zip(a, v)) <= b)
    for _ in range(2):
        i, j = rng.sample(range(k), 2)
        c = rng.randint(-1, 1)
        m += xs[i] != xs[j] + c
        checks.append(lambda v, i=i, j=j, c=c: v[i] != v[j] + c)
    w = None
    if objective:
        w = [rng.randint(-3, 4) for _ in range(k)]
        m.maximize(rcsp.linear(w, xs))
    return m, xs, checks, w, k, d


def brute_force(checks, k, d):
    return {v for v in itertools.product(range(d + 1), repeat=k) if all(c(v) for c in checks)}


@pytest.mark.parametrize("seed", range(6))
def test_a_split_tree_enumeration_equals_the_sequential_one(client, seed):
    m, xs, checks, _, k, d = random_model(seed, objective=False)
    expected = brute_force(checks, k, d)
    sequential = {tuple(s[xs]) for s in m.solve(all_solutions=True).solutions}
    assert sequential == expected
    found = rc.search(m, client, mode="all", keep_solutions=True, subproblems=16)
    solutions = [tuple(s[f"X{i}"] for i in range(k)) for s in found.all]
    assert len(solutions) == found.solutions
    assert len(set(solutions)) == len(solutions), "a solution was found in two subproblems"
    assert set(solutions) == expected
    for v in solutions:
        assert all(c(v) for c in checks)
    assert found.finished == found.subproblems
    assert found.status == ("OPTIMAL" if expected else "UNSATISFIABLE")
    if expected:
        assert found.subproblems > 1, "the tree was not split"


@pytest.mark.parametrize("seed", range(6))
def test_a_split_tree_optimum_equals_the_sequential_one(client, seed):
    m, xs, checks, w, k, d = random_model(seed, objective=True)
    feasible = brute_force(checks, k, d)
    sequential = m.solve()
    found = rc.search(m, client, subproblems=16)
    if not feasible:
        assert sequential.status == "UNSATISFIABLE"
        assert found.status == "UNSATISFIABLE" and found.solution is None
        return
    optimum = max(sum(x * y for x, y in zip(w, v)) for v in feasible)
    assert sequential.status == "OPTIMAL" and sequential.objective == optimum
    assert found.status == "OPTIMAL"
    assert found.objective == optimum
    assert found.finished == found.subproblems
    values = tuple(found.values)
    assert values in feasible
    assert sum(x * y for x, y in zip(w, values)) == optimum


def test_a_first_solution_and_a_proof_of_none(client):
    m, xs, checks, _, k, d = random_model(3, objective=False)
    found = rc.search(m, client)
    assert found.mode == "first" and found.status == "FEASIBLE"
    assert all(c(tuple(found.values)) for c in checks)
    none = rcsp.Model()
    ys = none.int_vars(4, 0, 2, "y")
    none += rcsp.all_different(ys)  # four values from three: no solution
    proof = rc.search(none, client)
    assert proof.status == "UNSATISFIABLE" and proof.finished == proof.subproblems


FLATZINC = """\
array [1..4] of int: w = [3, 5, 4, 6];
var 0..3: a :: output_var;
var 0..3: b :: output_var;
var 0..3: c :: output_var;
var 0..3: d :: output_var;
var 0..60: cost :: output_var;
constraint fzn_all_different_int([a, b, c, d]);
constraint int_lin_eq([3, 5, 4, 6, -1], [a, b, c, d, cost], 0);
solve :: int_search([a, b, c, d], input_order, indomain_min, complete) minimize cost;
"""


def test_flatzinc_text_and_files_are_searched_with_their_annotations(client, tmp_path):
    best = rc.search(FLATZINC, client, subproblems=8)
    # Brute force over the permutations of 0..3.
    optimum = min(3 * p[0] + 5 * p[1] + 4 * p[2] + 6 * p[3] for p in itertools.permutations(range(4)))
    assert best.status == "OPTIMAL" and best.objective == optimum
    s = best.solution
    assert sorted([s["a"], s["b"], s["c"], s["d"]]) == [0, 1, 2, 3]
    assert 3 * s["a"] + 5 * s["b"] + 4 * s["c"] + 6 * s["d"] == s["cost"] == optimum
    path = tmp_path / "model.fzn"
    path.write_text(FLATZINC.replace("minimize cost", "satisfy"))
    every = rc.search(path, client, mode="all")
    sequential = rcsp.solve_flatzinc(path, all_solutions=True)
    assert every.status == "OPTIMAL" and every.solutions == sequential["solutions"] == 24


def test_a_search_stops_at_its_time_limit(client):
    # Every solution of 13 queens as a model: far more than a second's work on two workers.
    n = 13
    m = rcsp.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += rcsp.all_different(q)
    m += rcsp.all_different([q[i] + i for i in range(n)])
    m += rcsp.all_different([q[i] - i for i in range(n)])
    started = time.time()
    found = rc.search(m, client, mode="all", time_limit=1.0)
    elapsed = time.time() - started
    assert found.finished < found.subproblems
    assert found.status == ("FEASIBLE" if found.solutions else "UNKNOWN")
    assert found.solutions < A000170[n - 1]
    assert elapsed < 30, elapsed  # a limit, with slack for a loaded machine; not a speed test


# --- A real cluster -----------------------------------------------------------------------------


def test_a_scheduler_and_two_workers_as_separate_processes(tmp_path):
    scheduler_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    processes = [
        subprocess.Popen(
            dask + ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(scheduler_file)],
            start_new_session=True, **quiet,
        )
    ]
    try:
        deadline = time.time() + 60
        while not scheduler_file.exists() and time.time() < deadline:
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for _ in range(2):
            processes.append(subprocess.Popen(
                dask + ["worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                        "--no-dashboard"],
                start_new_session=True, **quiet,
            ))
        with Client(address, timeout=60) as c:
            c.wait_for_workers(2, timeout=60)
            assert len(c.nthreads()) == 2
            result = rc.count(12, c, shards=24)
            assert (result.solutions, result.unique) == (A000170[11], A002562[11])
            m, xs, checks, w, k, d = random_model(1, objective=True)
            feasible = brute_force(checks, k, d)
            found = rc.search(m, c, subproblems=16)
            assert found.objective == max(sum(x * y for x, y in zip(w, v)) for v in feasible)
        # The command line, on the same cluster, then again on its checkpoint.
        command = [sys.executable, "-m", "rcsp.cluster", "count", "11", "--scheduler", address,
                   "--shards", "8", "--checkpoint", str(tmp_path / "ck")]
        run = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
        report = json.loads(run.stdout.strip().splitlines()[-1])
        assert (report["solutions"], report["unique"], report["ran"]) == (A000170[10], A002562[10], 8)
        again = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
        report = json.loads(again.stdout.strip().splitlines()[-1])
        assert (report["solutions"], report["ran"], report["resumed"]) == (A000170[10], 0, 8)
    finally:
        for process in reversed(processes):
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
