"""rcsp behaves like a Python library: the GIL is released while the engine works, Ctrl-C stops it
at once, time limits hold, a callback's exception surfaces, bad input raises a clear exception,
and nothing is printed."""

import threading
import time

import pytest
from support import ctrl_c_after

import rcsp


def hard_model(n=60):
    """A minimisation no search proves in seconds: queens whose column sum is minimised (it is
    fixed, but no propagator sees that)."""
    m = rcsp.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += rcsp.all_different(q)
    m += rcsp.all_different([q[i] + i for i in range(n)])
    m += rcsp.all_different([q[i] - i for i in range(n)])
    m.minimize(rcsp.sum(q))
    return m


def test_the_gil_is_released_during_a_solve():
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    started = time.monotonic()
    result = hard_model().solve(time_limit=2)
    elapsed = time.monotonic() - started
    done.set()
    thread.join()
    assert result.status in ("FEASIBLE", "UNKNOWN")
    assert 1.5 < elapsed < 4
    # A thread that could not run while the solve held the GIL would count almost nothing.
    assert ticks > 500, ticks


def test_ctrl_c_stops_a_solve_within_a_fifth_of_a_second():
    sent = ctrl_c_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        hard_model().solve(time_limit=30)
    latency = time.monotonic() - sent["at"]
    assert latency < 0.2, latency


def test_ctrl_c_stops_a_queens_count():
    sent = ctrl_c_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        rcsp.queens_count(20)
    # A count stops at its next finished subproblem: for N = 20 within a few seconds.
    assert time.monotonic() - sent["at"] < 10


def test_time_limits_hold():
    started = time.monotonic()
    result = hard_model().solve(time_limit=0.5)
    assert time.monotonic() - started < 1.5
    assert result.status in ("FEASIBLE", "UNKNOWN")


def test_an_exception_raised_in_a_callback_surfaces_after_the_search_stops():
    m = rcsp.Model()
    x = m.int_vars(5, 0, 4, "x")
    m += rcsp.all_different(x)
    seen = []

    def callback(solution):
        seen.append(solution[x])
        if len(seen) == 3:
            raise ValueError("enough")

    with pytest.raises(ValueError, match="enough"):
        m.solve(all_solutions=True, on_solution=callback)
    assert len(seen) == 3


def test_a_callback_returning_false_stops_the_search():
    m = rcsp.Model()
    x = m.int_vars(4, 0, 3, "x")
    m += rcsp.all_different(x)
    seen = []
    result = m.solve(all_solutions=True, on_solution=lambda s: seen.append(s) or len(seen) < 5)
    assert len(seen) == 5 and result.status == "FEASIBLE"


def test_bad_input_raises_clear_exceptions():
    m = rcsp.Model()
    x = m.int_var(0, 3, "x")
    with pytest.raises(ValueError, match="empty"):
        m.int_var(5, 1, "y")
    with pytest.raises(ValueError, match="empty"):
        m.int_var_in([], "z")
    with pytest.raises(ValueError, match="32-bit"):
        m.int_var(0, 2**40, "w")
    with pytest.raises(ValueError, match="already declared"):
        m.int_var(0, 1, "x")
    with pytest.raises(TypeError):
        m.add("x > 3")
    with pytest.raises(TypeError, match="integer expression"):
        m.add(x + 1)
    with pytest.raises(TypeError):
        m.add(x & (x > 1))
    with pytest.raises(TypeError, match="not a truth value"):
        bool(x == 1)
    with pytest.raises(TypeError, match="cannot be used inside"):
        m.add(~rcsp.all_different([x, x + 1]))
    other = rcsp.Model().int_var(0, 1, "o")
    with pytest.raises(ValueError, match="another model"):
        m.add(other == x)
    with pytest.raises(ValueError, match="time_limit"):
        m.solve(time_limit=-1)
    with pytest.raises(ValueError, match="off"):
        m.solve(learning="sometimes")
    with pytest.raises(TypeError):
        m.solve(nonsense=True)
    with pytest.raises(ValueError, match="same length"):
        m.add(rcsp.cumulative([x], [1, 2], [1], 1))
    with pytest.raises(ValueError, match="unknown method"):
        rcsp.queens_solve(8, method="magic")
    with pytest.raises(ValueError):
        rcsp.queens_count(99)
    with pytest.raises(ValueError):
        rcsp.solve_flatzinc(text="var 1..: x;")
    # The model is intact after every refusal.
    m.add(x >= 2)
    assert m.solve().status == "FEASIBLE"


def test_nothing_is_printed(capfd):
    m = hard_model(8)
    m.solve(time_limit=1)
    rcsp.queens_count(8)
    rcsp.queens_solve(8, method="search")
    rcsp.solve_flatzinc(text="var 1..3: x :: output_var;\nsolve satisfy;\n")
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_the_same_seed_gives_the_same_run():
    def run():
        m = hard_model(9)
        q = m.variables
        m.minimize(rcsp.linear(list(range(1, 10)), q))
        return m.solve(seed=3, free_search=True), q

    (first, q1), (second, q2) = run(), run()
    assert first.status == second.status == "OPTIMAL"
    assert first.statistics["nodes"] == second.statistics["nodes"]
    assert first[q1] == second[q2]


def test_flatzinc_from_python_prints_what_the_specification_says():
    result = rcsp.solve_flatzinc(
        text="var 1..9: x :: output_var;\nvar 1..9: y :: output_var;\n"
        "constraint int_lin_eq([2, 3], [x, y], 12);\nsolve maximize x;\n"
    )
    assert result["status"] == "OPTIMAL"
    assert result["output"].endswith("x = 3;\ny = 2;\n----------\n==========\n")


def test_solutions_come_one_at_a_time_and_a_loop_that_breaks_stops_the_search():
    m = rcsp.Model()
    q = m.int_vars(10, 0, 9, "q")
    m += rcsp.all_different(q)
    m += rcsp.all_different([q[i] + i for i in range(10)])
    m += rcsp.all_different([q[i] - i for i in range(10)])
    it = m.iter_solutions()
    first = [next(it)[q] for _ in range(3)]
    assert len({tuple(s) for s in first}) == 3
    it.close()
    assert list(it) == []
    # All of them, counted against A000170 (724 for n = 10), then the status.
    it = m.iter_solutions()
    assert sum(1 for _ in it) == 724
    assert it.status == "OPTIMAL"


def test_ctrl_c_stops_a_wait_for_the_next_solution():
    m = hard_model()
    it = m.iter_solutions(time_limit=30)
    sent = ctrl_c_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        for _ in it:
            pass
    assert time.monotonic() - sent["at"] < 0.2
