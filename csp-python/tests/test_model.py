"""Every operator and global of the modelling API against brute force: random small models with
fixed seeds, whose solutions rcsp enumerates and a plain Python evaluator finds by trying every
assignment. Undefined subexpressions (a division by zero, an index out of range) make an
assignment no solution, as the API documents."""

import itertools
import random

import pytest

import rcsp


class Undefined(Exception):
    """A subexpression has no value (division by zero, index out of range)."""


def trunc_div(a, b):
    if b == 0:
        raise Undefined
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def trunc_mod(a, b):
    return a - b * trunc_div(a, b)


class Gen:
    """Random expressions over integer and Boolean variables, each paired with its evaluator."""

    def __init__(self, rng, ints, bools):
        self.rng = rng
        self.ints = ints  # [(rcsp var, index)]
        self.bools = bools

    def int_expr(self, depth):
        rng = self.rng
        if depth == 0 or rng.random() < 0.3:
            if rng.random() < 0.25:
                c = rng.randint(-3, 3)
                return c, lambda v, c=c: c
            var, i = rng.choice(self.ints)
            return var, lambda v, i=i: v[i]
        kind = rng.choice(["+", "-", "*", "//", "%", "abs", "min", "max", "neg", "element", "count", "b2i", "scale"])
        a, fa = self.int_expr(depth - 1)
        b, fb = self.int_expr(depth - 1)
        if kind == "+":
            return a + b, lambda v: fa(v) + fb(v)
        if kind == "-":
            return a - b, lambda v: fa(v) - fb(v)
        if kind == "*":
            return a * b, lambda v: fa(v) * fb(v)
        if kind == "scale":
            k = rng.randint(-3, 3)
            return k * a, lambda v: k * fa(v)
        if kind == "//":
            if isinstance(a, int) and isinstance(b, int):
                return self.int_expr(depth - 1)
            return a // b, lambda v: trunc_div(fa(v), fb(v))
        if kind == "%":
            if isinstance(a, int) and isinstance(b, int):
                return self.int_expr(depth - 1)
            return a % b, lambda v: trunc_mod(fa(v), fb(v))
        if kind == "abs":
            if isinstance(a, int):
                return self.int_expr(depth - 1)
            return abs(a), lambda v: abs(fa(v))
        if kind == "neg":
            if isinstance(a, int):
                return self.int_expr(depth - 1)
            return -a, lambda v: -fa(v)
        if kind in ("min", "max"):
            c, fc = self.int_expr(depth - 1)
            f = min if kind == "min" else max
            g = rcsp.minimum if kind == "min" else rcsp.maximum
            return g([a, b, c]), lambda v: f(fa(v), fb(v), fc(v))
        if kind == "element":
            c, fc = self.int_expr(depth - 1)
            var, i = rng.choice(self.ints)

            def ev(v, fa=fa, fb=fb, fc=fc, i=i):
                values = (fa(v), fb(v), fc(v))
                k = v[i]
                if not 0 <= k < 3:
                    raise Undefined
                return values[k]

            return rcsp.element([a, b, c], var), ev
        if kind == "count":
            target = rng.randint(-1, 2)
            return rcsp.count([a, b], target), lambda v: [fa(v), fb(v)].count(target)
        # A Boolean used as an integer.
        p, fp = self.bool_expr(depth - 1)
        return p + 0, lambda v: int(fp(v))

    def bool_expr(self, depth):
        rng = self.rng
        if depth == 0 or rng.random() < 0.2:
            if self.bools and rng.random() < 0.6:
                var, i = rng.choice(self.bools)
                return var, lambda v, i=i: bool(v[i])
            a, fa = self.int_expr(0)
            b, fb = self.int_expr(0)
            if isinstance(a, int) and isinstance(b, int):
                return self.bool_expr(0)
            return a <= b, lambda v: fa(v) <= fb(v)
        kind = rng.choice(["cmp", "cmp", "&", "|", "~", "^", "implies", "all_of", "any_of"])
        if kind == "cmp":
            a, fa = self.int_expr(depth - 1)
            b, fb = self.int_expr(depth - 1)
            if isinstance(a, int) and isinstance(b, int):
                return self.bool_expr(depth - 1)
            op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
            py = {
                "==": (lambda x, y: x == y),
                "!=": (lambda x, y: x != y),
                "<": (lambda x, y: x < y),
                "<=": (lambda x, y: x <= y),
                ">": (lambda x, y: x > y),
                ">=": (lambda x, y: x >= y),
            }[op]
            return py(a, b), lambda v: py(fa(v), fb(v))
        p, fp = self.bool_expr(depth - 1)
        q, fq = self.bool_expr(depth - 1)
        # Both sides are always evaluated: the semantics is strict, so an undefined side rejects
        # the assignment even where Python's `and` and `or` would not look at it.
        both = lambda v: (fp(v), fq(v))  # noqa: E731
        if kind == "&":
            return p & q, lambda v: all(both(v))
        if kind == "|":
            return p | q, lambda v: any(both(v))
        if kind == "~":
            return ~p, lambda v: not fp(v)
        if kind == "^":
            return p ^ q, lambda v: both(v)[0] != both(v)[1]
        if kind == "implies":
            return p.implies(q), lambda v: (lambda a, b: (not a) or b)(*both(v))
        if kind == "all_of":
            return rcsp.all_of([p, q]), lambda v: all(both(v))
        return rcsp.any_of([p, q]), lambda v: any(both(v))


def brute_force(domains, constraints):
    solutions = []
    for values in itertools.product(*domains):
        try:
            # Every constraint is evaluated, so that an undefined one anywhere rejects the assignment.
            holds = [f(values) for f in constraints]
        except (Undefined, ZeroDivisionError):
            continue
        if all(holds):
            solutions.append(tuple(values))
    return solutions


def small_model(seed):
    rng = random.Random(seed)
    m = rcsp.Model()
    domains = []
    ints, bools = [], []
    for k in range(rng.randint(2, 3)):
        lo = rng.randint(-2, 1)
        hi = lo + rng.randint(1, 3)
        var = m.int_var(lo, hi, f"x{k}")
        ints.append((var, len(domains)))
        domains.append(range(lo, hi + 1))
    for k in range(rng.randint(0, 2)):
        var = m.bool_var(f"b{k}")
        bools.append((var, len(domains)))
        domains.append((0, 1))
    return rng, m, domains, Gen(rng, ints, bools), [v for v, _ in ints + bools]


@pytest.mark.parametrize("seed", range(300))
def test_random_expressions_have_exactly_the_brute_force_solutions(seed):
    rng, m, domains, gen, variables = small_model(seed)
    evaluators = []
    for _ in range(rng.randint(1, 2)):
        expr, f = gen.bool_expr(rng.randint(1, 3))
        if isinstance(expr, bool):
            continue
        m += expr
        evaluators.append(f)
    expected = sorted(brute_force(domains, evaluators))
    result = m.solve(all_solutions=True)
    found = sorted(tuple(int(s[v]) for v in variables) for s in result.solutions)
    assert found == expected, f"seed {seed}: {m}"
    assert result.status == ("OPTIMAL" if expected else "UNSATISFIABLE")


@pytest.mark.parametrize("seed", range(100))
def test_random_objectives_reach_the_brute_force_optimum(seed):
    rng, m, domains, gen, variables = small_model(1000 + seed)
    expr, f = gen.bool_expr(2)
    evaluators = []
    if not isinstance(expr, bool):
        m += expr
        evaluators.append(f)
    objective, fo = gen.int_expr(2)
    if isinstance(objective, int):
        return
    minimise = rng.random() < 0.5
    (m.minimize if minimise else m.maximize)(objective)
    values = []
    for assignment in brute_force(domains, evaluators):
        try:
            values.append(fo(assignment))
        except (Undefined, ZeroDivisionError):
            pass
    result = m.solve()
    if not values:
        # No assignment satisfies the constraints with a defined objective.
        assert result.status in ("UNSATISFIABLE",), result
        return
    assert result.status == "OPTIMAL"
    assert result.objective == (min(values) if minimise else max(values))
    # The solution reported is one of the brute force's, with that objective.
    assignment = tuple(int(result[v]) for v in variables)
    assert all(f(assignment) for f in evaluators)
    assert fo(assignment) == result.objective


def count_of(m, variables):
    return sorted(tuple(int(s[v]) for v in variables) for s in m.solve(all_solutions=True).solutions)


GLOBALS = {
    "all_different": (lambda xs: rcsp.all_different(xs), lambda v: len(set(v)) == len(v)),
    "all_different_except_0": (
        lambda xs: rcsp.all_different_except_0(xs),
        lambda v: len([x for x in v if x]) == len({x for x in v if x}),
    ),
    "all_equal": (lambda xs: rcsp.all_equal(xs), lambda v: len(set(v)) <= 1),
    "increasing": (lambda xs: rcsp.increasing(xs), lambda v: all(a <= b for a, b in zip(v, v[1:]))),
    "decreasing": (lambda xs: rcsp.decreasing(xs), lambda v: all(a >= b for a, b in zip(v, v[1:]))),
    "circuit": (lambda xs: rcsp.circuit(xs), None),
    "subcircuit": (lambda xs: rcsp.subcircuit(xs), None),
    "nvalue=2": (lambda xs: rcsp.nvalue(xs) == 2, lambda v: len(set(v)) == 2),
    "among<=1": (lambda xs: rcsp.among(xs, [0, 2]) <= 1, lambda v: sum(x in (0, 2) for x in v) <= 1),
    "value_precede": (
        lambda xs: rcsp.value_precede(1, 2, xs),
        lambda v: 2 not in v or (1 in v and v.index(1) < v.index(2)),
    ),
    "member": (lambda xs: rcsp.member(xs[:-1], xs[-1]), lambda v: v[-1] in v[:-1]),
}


def circuit_holds(v, sub):
    n = len(v)
    on = [i for i in range(n) if not sub or v[i] != i]
    if not on:
        return True
    seen, node = set(), on[0]
    for _ in on:
        if node in seen or not 0 <= node < n:
            return False
        seen.add(node)
        node = v[node]
    return node == on[0] and seen == set(on)


@pytest.mark.parametrize("name", sorted(GLOBALS))
@pytest.mark.parametrize("n", [3, 4])
def test_each_global_has_exactly_the_brute_force_solutions(name, n):
    post, holds = GLOBALS[name]
    if holds is None:
        holds = lambda v: circuit_holds(v, name == "subcircuit")  # noqa: E731
    m = rcsp.Model()
    xs = m.int_vars(n, 0, n - 1, "x")
    m += post(xs)
    expected = [v for v in itertools.product(range(n), repeat=n) if holds(list(v))]
    assert count_of(m, xs) == sorted(expected)


def test_table_lex_inverse_gcc_bin_packing_against_brute_force():
    rng = random.Random(7)
    for _ in range(20):
        m = rcsp.Model()
        xs = m.int_vars(3, 0, 2, "x")
        ys = m.int_vars(3, 0, 2, "y")
        tuples = [[rng.randint(0, 2) for _ in range(3)] for _ in range(rng.randint(0, 6))]
        m += rcsp.table(xs, tuples)
        m += rcsp.lex_lesseq(xs, ys)
        variables = xs + ys
        expected = [
            v
            for v in itertools.product(range(3), repeat=6)
            if list(v[:3]) in tuples and list(v[:3]) <= list(v[3:])
        ]
        assert count_of(m, variables) == sorted(expected)
    m = rcsp.Model()
    f = m.int_vars(3, 0, 2, "f")
    g = m.int_vars(3, 0, 2, "g")
    m += rcsp.inverse(f, g)
    expected = [
        v
        for v in itertools.product(range(3), repeat=6)
        if all(v[3 + v[i]] == i for i in range(3)) and all(v[v[3 + j]] == j for j in range(3))
    ]
    assert count_of(m, f + g) == sorted(expected)
    m = rcsp.Model()
    xs = m.int_vars(4, 0, 2, "x")
    counts = m.int_vars(2, 0, 4, "c")
    m += rcsp.global_cardinality(xs, [0, 1], counts)
    expected = [
        v
        for v in itertools.product(range(3), repeat=4)
        for c in [(v.count(0), v.count(1))]
    ]
    found = count_of(m, xs + counts)
    assert found == sorted(tuple(v) + (v.count(0), v.count(1)) for v in expected)
    m = rcsp.Model()
    bins = m.int_vars(3, 0, 1, "bin")
    loads = m.int_vars(2, 0, 6, "load")
    m += rcsp.bin_packing_load(loads, bins, [2, 3, 1])
    expected = sorted(
        tuple(b) + (sum(w for w, x in zip([2, 3, 1], b) if x == 0), sum(w for w, x in zip([2, 3, 1], b) if x == 1))
        for b in itertools.product(range(2), repeat=3)
    )
    assert count_of(m, bins + loads) == expected


def test_scheduling_globals_against_brute_force():
    durations, demands = [2, 1, 2], [1, 2, 1]
    m = rcsp.Model()
    starts = m.int_vars(3, 0, 3, "s")
    m += rcsp.cumulative(starts, durations, demands, 2)
    def load_ok(s):
        return all(
            sum(r for t0, d, r in zip(s, durations, demands) if t0 <= t < t0 + d) <= 2 for t in range(8)
        )
    expected = [s for s in itertools.product(range(4), repeat=3) if load_ok(s)]
    assert count_of(m, starts) == sorted(expected)
    m = rcsp.Model()
    starts = m.int_vars(3, 0, 4, "s")
    m += rcsp.disjunctive(starts, durations)
    def apart(s):
        return all(
            s[i] + durations[i] <= s[j] or s[j] + durations[j] <= s[i]
            for i in range(3)
            for j in range(i + 1, 3)
        )
    expected = [s for s in itertools.product(range(5), repeat=3) if apart(s)]
    assert count_of(m, starts) == sorted(expected)
    m = rcsp.Model()
    x = m.int_vars(2, 0, 2, "x")
    y = m.int_vars(2, 0, 1, "y")
    m += rcsp.diffn(x, y, [2, 1], [1, 2])
    def disjoint(v):
        (x0, x1, y0, y1) = v
        return x0 + 2 <= x1 or x1 + 1 <= x0 or y0 + 1 <= y1 or y1 + 2 <= y0
    expected = [v for v in itertools.product(range(3), range(3), range(2), range(2)) if disjoint(v)]
    assert count_of(m, x + y) == sorted(expected)


def test_regular_accepts_exactly_the_automatons_words():
    # Words over {1, 2} with no two 2s in a row.
    transitions = {(0, 1): 0, (0, 2): 1, (1, 1): 0}
    m = rcsp.Model()
    xs = m.int_vars(4, 1, 2, "x")
    m += rcsp.regular(xs, transitions, 0, [0, 1])
    expected = [w for w in itertools.product((1, 2), repeat=4) if all(not (a == b == 2) for a, b in zip(w, w[1:]))]
    assert count_of(m, xs) == sorted(expected)


def test_values_of_expressions_and_lists():
    m = rcsp.Model()
    x = m.int_var(2, 2, "x")
    y = m.int_var(5, 5, "y")
    b = m.bool_var("b")
    m += b
    r = m.solve()
    assert r.status == "FEASIBLE"
    assert r[x] == 2 and r[[x, [y]]] == [2, [5]]
    assert r[x * y + 1] == 11 and r[y // x] == 2 and r[y % x] == 1
    assert r[b] is True and r[~b] is False and r[x < y] is True
