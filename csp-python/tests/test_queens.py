"""The flagship from Python: counts against the published sequences, every solving method's
answer checked by a verifier written here."""

import pytest
from support import is_solution

import rcsp

# OEIS A000170 (all solutions) and A002562 (essentially distinct), n = 1..14.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]


@pytest.mark.parametrize("n", range(1, 15))
def test_counts_equal_the_published_sequences(n):
    result = rcsp.queens_count(n)
    assert result["complete"]
    assert result["solutions"] == A000170[n - 1]
    assert result["unique"] == A002562[n - 1]


def test_a_sharded_count_adds_up_to_the_whole():
    parts = [rcsp.queens_count(12, shard=(i, 3)) for i in range(3)]
    assert sum(p["solutions"] for p in parts) == A000170[11]


METHODS = ["auto", "explicit", "search", "qs1", "qs4", "las-vegas1", "las-vegas2", "min-conflicts"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [4, 8, 25, 100])
def test_every_method_places_queens_that_do_not_attack(method, n):
    result = rcsp.queens_solve(n, method=method, seed=1)
    assert is_solution(result["placement"], n), result


@pytest.mark.parametrize("n", [2, 3])
def test_boards_without_a_solution_say_so(n):
    assert rcsp.queens_solve(n)["placement"] is None
    assert rcsp.queens_solve(n, method="search")["placement"] is None


def test_a_million_queens_by_the_explicit_construction():
    placement = rcsp.queens_solve(1_000_000)["placement"]
    assert is_solution(placement, 1_000_000)


def test_queens_as_a_model_matches_the_count():
    n = 8
    m = rcsp.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += rcsp.all_different(q)
    m += rcsp.all_different([q[i] + i for i in range(n)])
    m += rcsp.all_different([q[i] - i for i in range(n)])
    solutions = list(rcsp.solutions(m))
    assert len(solutions) == A000170[n - 1]
    assert all(is_solution(s[q], n) for s in solutions)
