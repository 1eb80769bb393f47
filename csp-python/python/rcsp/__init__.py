"""rcsp: the csp constraint solver from Python.

Model with integer and Boolean variables, Python's operators and the engine's global
constraints; solve with a time limit, threads and a seed; read solutions by variable or by
expression::

    import rcsp

    m = rcsp.Model()
    x = m.int_vars(4, 0, 3, "x")
    m += rcsp.all_different(x)
    m += x[0] + x[1] == x[2] + 1
    m.maximize(x[3])
    result = m.solve(time_limit=10)
    print(result.status, result.objective, result[x])

Every expression is lowered to the engine's constraints in Rust, when it is added; every solution
is checked against the lowered constraints before Python sees it. The GIL is released while the
engine works, and Ctrl-C stops it. ``rcsp.cpmpy`` registers the engine as CPMpy's ``"rcsp"`` solver.
"""

from importlib import metadata as _metadata
from typing import Iterator

from rcsp._native import (
    Expr,
    Model,
    Solution,
    SolutionIterator,
    SolveResult,
    all_different,
    all_different_except_0,
    all_equal,
    all_of,
    among,
    any_of,
    bin_packing_load,
    circuit,
    count,
    cumulative,
    decreasing,
    diffn,
    disjunctive,
    element,
    global_cardinality,
    implies,
    increasing,
    inverse,
    lex_less,
    lex_lesseq,
    linear,
    maximum,
    member,
    minimum,
    nvalue,
    queens_compare,
    queens_count,
    queens_estimate,
    queens_profile,
    queens_solve,
    queens_trace,
    regular,
    search_options,
    solve_flatzinc,
    subcircuit,
    sum,
    table,
    value_precede,
    xor,
)

try:
    __version__ = _metadata.version("rcsp")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"


def solutions(model: Model, limit: int | None = None, **options) -> Iterator[Solution]:
    """The solutions of ``model`` (at most ``limit``; under an objective, the improving ones),
    found one at a time as the loop asks for them: ``Model.iter_solutions`` with ``options``."""
    return model.iter_solutions(solution_limit=limit, **options)


__all__ = [
    "Expr",
    "Model",
    "Solution",
    "SolutionIterator",
    "SolveResult",
    "all_different",
    "all_different_except_0",
    "all_equal",
    "all_of",
    "among",
    "any_of",
    "bin_packing_load",
    "circuit",
    "count",
    "cumulative",
    "decreasing",
    "diffn",
    "disjunctive",
    "element",
    "global_cardinality",
    "implies",
    "increasing",
    "inverse",
    "lex_less",
    "lex_lesseq",
    "linear",
    "maximum",
    "member",
    "minimum",
    "nvalue",
    "queens_compare",
    "queens_count",
    "queens_estimate",
    "queens_profile",
    "queens_solve",
    "queens_trace",
    "regular",
    "search_options",
    "solutions",
    "solve_flatzinc",
    "subcircuit",
    "sum",
    "table",
    "value_precede",
    "xor",
]
