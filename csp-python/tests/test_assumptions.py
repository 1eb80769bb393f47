"""Solving under assumptions and cores, against brute force: random clause sets over a few
Boolean and integer variables (fixed seeds), each answer checked by trying every assignment."""

import itertools
import random

import pytest

import rcsp


def random_model(seed):
    """A random model of clauses over four Booleans and two small integers, with the clauses as
    Python predicates and a pool of candidate assumptions (expression, predicate)."""
    rng = random.Random(seed)
    m = rcsp.Model()
    b = m.bool_vars(4, "b")
    x = m.int_vars(2, 0, 3, "x")
    literals = [(b[i], lambda v, i=i: v[i] == 1) for i in range(4)]
    literals += [(~b[i], lambda v, i=i: v[i] == 0) for i in range(4)]
    comparisons = [
        (x[0] < x[1], lambda v: v[4] < v[5]),
        (x[0] + x[1] >= 4, lambda v: v[4] + v[5] >= 4),
        (x[0] == 2, lambda v: v[4] == 2),
        (x[1] != 1, lambda v: v[5] != 1),
    ]
    pool = literals + comparisons
    clauses = []
    for _ in range(rng.randint(2, 6)):
        chosen = rng.sample(pool, rng.randint(1, 3))
        m += rcsp.any_of([expr for expr, _ in chosen])
        clauses.append([check for _, check in chosen])
    assumptions = rng.sample(pool, rng.randint(1, 5))
    return m, b + x, clauses, assumptions


def assignments():
    return itertools.product([0, 1], [0, 1], [0, 1], [0, 1], range(4), range(4))


def satisfiable(clauses, checks):
    """Whether some assignment satisfies every clause and every check."""
    return any(
        all(any(c(v) for c in clause) for clause in clauses) and all(c(v) for c in checks)
        for v in assignments()
    )


@pytest.mark.parametrize("seed", range(60))
def test_solves_under_assumptions_and_cores_agree_with_brute_force(seed):
    m, variables, clauses, assumptions = random_model(seed)
    exprs = [e for e, _ in assumptions]
    checks = [c for _, c in assumptions]
    result = m.solve(assumptions=exprs)
    expected = satisfiable(clauses, checks)
    assert (result.status != "UNSATISFIABLE") == expected
    if expected:
        v = [result[var] for var in variables]
        assert all(any(c(v) for c in clause) for clause in clauses)
        assert all(c(v) for c in checks)
        assert m.core(exprs) is None
        return
    def checks_of(core):
        assert core is not None and all(any(e is c for c in exprs) for e in core)
        return [checks[next(i for i, e in enumerate(exprs) if e is c)] for c in core]

    # The engine's core cannot hold with the model.
    assert not satisfiable(clauses, checks_of(m.core(exprs)))
    # A minimal one cannot either, and without any one of it, the rest can.
    minimal = checks_of(m.core(exprs, minimal=True))
    assert not satisfiable(clauses, minimal)
    for i in range(len(minimal)):
        assert satisfiable(clauses, minimal[:i] + minimal[i + 1 :])


def test_assumptions_hold_for_one_solve_only():
    m = rcsp.Model()
    x = m.int_var(0, 9, "x")
    m += x >= 3
    assert m.solve(assumptions=[x <= 2]).status == "UNSATISFIABLE"
    assert len(m.solve(all_solutions=True).solutions) == 7
    r = m.solve(assumptions={x == 5})
    assert r[x] == 5
    assert len(m.solve(all_solutions=True).solutions) == 7
    # An objective still counts under assumptions, and the core ignores it.
    m.maximize(x)
    r = m.solve(assumptions=[x <= 6])
    assert (r.status, r.objective) == ("OPTIMAL", 6)
    a = [x <= 6, x >= 8, x != 4]
    core = m.core(a, minimal=True)
    assert len(core) == 2 and core[0] is a[0] and core[1] is a[1]
    assert m.solve().objective == 9


def test_an_empty_core_means_the_model_itself_has_no_solution():
    m = rcsp.Model()
    x = m.int_var(0, 3, "x")
    b = m.bool_var("b")
    m += x > 5
    assert m.core([b, ~b]) == []
    assert m.core([]) == []


def test_contradictory_assumptions_are_the_core():
    m = rcsp.Model()
    b = m.bool_vars(3, "b")
    a = [b[0], ~b[0], b[1]]
    assert m.solve(assumptions=a).status == "UNSATISFIABLE"
    core = m.core(a, minimal=True)
    assert len(core) == 2 and core[0] is a[0] and core[1] is a[1]


def test_bad_assumptions_raise_clear_errors_and_leave_the_model_as_it_was():
    m = rcsp.Model()
    x = m.int_var(0, 3, "x")
    other = rcsp.Model().bool_var("y")
    with pytest.raises(TypeError, match="assumptions must be a list"):
        m.solve(assumptions="x")
    with pytest.raises(TypeError, match="assumptions must be a list"):
        m.solve(assumptions=x >= 1)
    with pytest.raises(TypeError, match="assumptions must be a list"):
        m.core(3)
    with pytest.raises((TypeError, ValueError)):
        m.solve(assumptions=[x + 1])
    with pytest.raises((TypeError, ValueError)):
        m.solve(assumptions=[other])
    with pytest.raises(ValueError, match="time_limit"):
        m.core([x >= 1], time_limit=0)
    assert len(m.solve(all_solutions=True).solutions) == 4


def test_the_engine_core_is_often_smaller_than_the_assumptions():
    # Many assumptions, of which two clash: the final conflict rests on those two alone.
    m = rcsp.Model()
    b = m.bool_vars(12, "b")
    x = m.int_var(0, 9, "x")
    m += b[3].implies(x >= 5)
    m += b[7].implies(x <= 2)
    assumptions = list(b)
    core = m.core(assumptions)
    assert [e is b[3] or e is b[7] for e in core] == [True, True]
