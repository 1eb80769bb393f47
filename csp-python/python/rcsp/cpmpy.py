"""The engine as CPMpy's ``"rcsp"`` solver.

Importing this module registers ``CPM_rcsp`` in CPMpy's ``SolverLookup``, so that
``model.solve("rcsp")`` and ``cp.SolverLookup.get("rcsp", model)`` reach the engine; CPMpy itself
is not modified. CPMpy's transformations run first where the engine lacks a construct (partial
functions made total inside reified contexts, globals the engine does not have decomposed), then
each constraint is handed to the engine's own lowering, in Rust, nested expressions and all.

``solve(assumptions=…)`` and ``get_core()`` are supported: the core is the engine's own, from its
learning search's final conflict analysis. Not supported: ``solution_hint`` and proof logging.
"""

from __future__ import annotations

import time
import warnings
from typing import Optional

import numpy as np
from cpmpy.exceptions import NotSupportedError
from cpmpy.expressions.core import BoolVal, Comparison, Expression, Operator
from cpmpy.expressions.globalconstraints import GlobalConstraint
from cpmpy.expressions.globalfunctions import GlobalFunction
from cpmpy.expressions.utils import is_any_list, is_int, is_num
from cpmpy.expressions.variables import NegBoolView, _BoolVarImpl, _IntVarImpl, _NumVarImpl
from cpmpy.solvers.solver_interface import ExitStatus, SolverInterface, SolverStatus
from cpmpy.solvers.utils import SolverLookup
from cpmpy.transformations.decompose_global import decompose_in_tree, decompose_objective
from cpmpy.transformations.get_variables import get_variables
from cpmpy.transformations.normalize import toplevel_list
from cpmpy.transformations.safening import no_partial_functions, safen_objective

import rcsp

# CPMpy's name of a global, and the engine's function for it. Each is checked by CPMpy's own
# test suite against CPMpy's evaluator; a global not listed is decomposed by CPMpy.
_GLOBAL_CONSTRAINTS = {
    "alldifferent": lambda args: rcsp.all_different(args),
    "table": lambda args: rcsp.table(args[0], [[int(v) for v in row] for row in args[1]]),
    "circuit": lambda args: rcsp.circuit(args),
    "inverse": lambda args: rcsp.inverse(args[0], args[1]),
    "increasing": lambda args: rcsp.increasing(args),
    "decreasing": lambda args: rcsp.decreasing(args),
    "lex_less": lambda args: rcsp.lex_less(args[0], args[1]),
    "lex_lesseq": lambda args: rcsp.lex_lesseq(args[0], args[1]),
}

_GLOBAL_FUNCTIONS = {
    "min": lambda args: rcsp.minimum(args),
    "max": lambda args: rcsp.maximum(args),
    "abs": lambda args: abs(args[0]),
    "mul": lambda args: args[0] * args[1],
    "div": lambda args: args[0] // args[1],
    "mod": lambda args: args[0] % args[1],
    "pow": lambda args: args[0] ** args[1],
    "element": lambda args: rcsp.element(args[0], args[1]),
    "count": lambda args: rcsp.count(args[0], args[1]),
    "among": lambda args: rcsp.among(args[0], [int(v) for v in args[1]]),
    "nvalue": lambda args: rcsp.nvalue(args),
}


class CPM_rcsp(SolverInterface):
    """CPMpy's interface to the csp engine (``rcsp``)."""

    supported_global_constraints = (
        frozenset(_GLOBAL_CONSTRAINTS) | frozenset(_GLOBAL_FUNCTIONS) | {"gcc", "cumulative", "no_overlap"}
    )
    supported_reified_global_constraints = frozenset()

    @staticmethod
    def supported() -> bool:
        return True

    @staticmethod
    def version() -> Optional[str]:
        return rcsp.__version__

    def __init__(self, cpm_model=None, subsolver=None):
        if subsolver is not None:
            raise NotSupportedError("rcsp has no subsolvers")
        self.rcsp_model = rcsp.Model()
        self._objective = None
        self._native_objective = None
        self._objective_is_min = True
        self.assumption_vars = None
        self._assumption_natives = None
        super().__init__(name="rcsp", cpm_model=cpm_model)

    @property
    def native_model(self):
        return self.rcsp_model

    def solver_var(self, cpm_var):
        if is_num(cpm_var):
            return int(cpm_var)
        if isinstance(cpm_var, NegBoolView):
            return ~self.solver_var(cpm_var._bv)
        if isinstance(cpm_var, _NumVarImpl):
            found = self._varmap.get(cpm_var.name)
            if found is None:
                if isinstance(cpm_var, _BoolVarImpl):
                    found = self.rcsp_model.bool_var(cpm_var.name)
                elif isinstance(cpm_var, _IntVarImpl):
                    found = self.rcsp_model.int_var(int(cpm_var.lb), int(cpm_var.ub), cpm_var.name)
                else:
                    raise NotImplementedError(f"rcsp: variables of type {type(cpm_var)}")
                self._varmap[cpm_var.name] = found
            return found
        raise NotImplementedError(f"rcsp: not a variable: {cpm_var}")

    def transform(self, cpm_expr):
        constraints = toplevel_list(cpm_expr)
        # Partial functions (a division by zero, an index out of range) inside a reified context
        # must make that context false, not the model: CPMpy's rewriting does that. At the top
        # level the engine's own relational semantics already fail the constraint.
        constraints = no_partial_functions(constraints)
        constraints = decompose_in_tree(
            constraints,
            supported=self.supported_global_constraints,
            supported_reified=self.supported_reified_global_constraints,
            csemap=self._csemap,
        )
        return constraints

    def _convert(self, expr):
        """The engine's expression for a CPMpy expression, nested expressions and all."""
        if isinstance(expr, (bool, np.bool_)):
            return bool(expr)
        if is_int(expr):
            return int(expr)
        if isinstance(expr, BoolVal):
            return bool(expr.value())
        if is_any_list(expr):
            return [self._convert(e) for e in expr]
        if isinstance(expr, _NumVarImpl):
            return self.solver_var(expr)
        if isinstance(expr, Comparison):
            a, b = (self._convert(x) for x in expr.args)
            return _COMPARE[expr.name](a, b)
        if isinstance(expr, Operator):
            args = [self._convert(x) for x in expr.args]
            name = expr.name
            if name in ("and", "or", "->", "not"):
                # Constants in a Boolean context are truth values (CPMpy may hand over 0 and 1).
                args = [bool(a) if isinstance(a, int) else a for a in args]
            if name == "and":
                return rcsp.all_of(args)
            if name == "or":
                return rcsp.any_of(args)
            if name == "->":
                return rcsp.implies(args[0], args[1])
            if name == "not":
                return not args[0] if isinstance(args[0], bool) else ~args[0]
            if name == "sum":
                return rcsp.sum(args)
            if name == "wsum":
                return rcsp.linear([int(w) for w in args[0]], args[1])
            if name == "sub":
                return args[0] - args[1]
            if name == "-":
                return -args[0]
            raise NotImplementedError(f"rcsp: the operator {name}")
        if isinstance(expr, GlobalFunction):
            convert = _GLOBAL_FUNCTIONS.get(expr.name)
            if convert is None:
                raise NotImplementedError(f"rcsp: the global function {expr.name}")
            return convert([self._convert(x) for x in expr.args])
        if isinstance(expr, GlobalConstraint):
            if expr.name in ("cumulative", "no_overlap"):
                return self._scheduling(expr)
            if expr.name == "gcc":
                vars_, vals, occ = expr.args
                return rcsp.global_cardinality(
                    self._convert(vars_), [int(v) for v in vals], self._convert(occ), expr.closed
                )
            convert = _GLOBAL_CONSTRAINTS.get(expr.name)
            if convert is None:
                raise NotImplementedError(f"rcsp: the global constraint {expr.name}")
            if expr.name == "table":
                return convert([self._convert(expr.args[0]), expr.args[1]])
            return convert([self._convert(x) for x in expr.args])
        raise NotImplementedError(f"rcsp: the expression {expr}")

    def _scheduling(self, expr):
        """CPMpy's ``Cumulative`` and ``NoOverlap`` on the engine's time-table propagators, with
        the conditions CPMpy's definitions add: no negative duration or demand, and each end
        (when given) its start plus its duration. Zero-duration tasks use no resource, as in
        the engine's (non-strict) cumulative and disjunctive."""
        args = [self._convert(x) for x in expr.args]
        if expr.name == "cumulative":
            if len(args) == 4:
                start, duration, demand, capacity = args
                end = None
            else:
                start, duration, end, demand, capacity = args
            parts = [rcsp.cumulative(start, duration, demand, capacity)]
            parts += [h >= 0 for h in demand]
        else:
            if len(args) == 2:
                start, duration = args
                end = None
            else:
                start, duration, end = args
            parts = [rcsp.disjunctive(start, duration)]
        parts += [d >= 0 for d in duration]
        if end is not None:
            parts += [s + d == e for s, d, e in zip(start, duration, end)]
        # Comparisons of constants are plain bools here; all_of takes them as they are.
        return rcsp.all_of(parts)

    def add(self, cpm_expr):
        get_variables(cpm_expr, collect=self.user_vars)
        for constraint in self.transform(cpm_expr):
            self.rcsp_model.add(self._convert(constraint))
        return self

    __add__ = add

    def objective(self, expr, minimize=True):
        get_variables(expr, collect=self.user_vars)
        obj, safe = safen_objective(expr)
        obj, decomposed = decompose_objective(
            obj,
            supported=self.supported_global_constraints,
            supported_reified=self.supported_reified_global_constraints,
            csemap=self._csemap,
        )
        self.add(safe + decomposed)
        self._native_objective = self._convert(obj)
        self._objective = obj
        self._objective_is_min = minimize
        self._set_native_objective()

    def _set_native_objective(self):
        if self._objective_is_min:
            self.rcsp_model.minimize(self._native_objective)
        else:
            self.rcsp_model.maximize(self._native_objective)

    def has_objective(self):
        return self._objective is not None

    def solve(self, time_limit: Optional[float] = None, display=None, seed: int = 0, threads: int = 1,
              assumptions=None, **kwargs):
        """Solves with the engine: ``time_limit`` in seconds, ``seed`` and ``threads`` as
        ``rcsp.Model.solve`` takes them, and its other options (``learning``, ``lns``,
        ``free_search``) by name.

        ``display`` is CPMpy's solution callback: an expression or a list of them to print, or a
        function of no arguments to call, with the variables' values set, at each solution found
        (each improving one under an objective).

        ``assumptions``: Boolean variables (or their negations, or other Boolean expressions)
        that must hold in this solve only; when they cannot, ``get_core()`` names some that
        cannot together."""
        if assumptions is not None:
            self.assumption_vars = list(assumptions)
            get_variables(self.assumption_vars, collect=self.user_vars)
            self._assumption_natives = [self._convert(a) for a in self.assumption_vars]
            kwargs["assumptions"] = self._assumption_natives
        else:
            self.assumption_vars = None
            self._assumption_natives = None
        result = self._run(time_limit, display, seed=seed, threads=threads, **kwargs)
        return self._read(result, self.cpm_status)

    def get_core(self):
        """After a solve under ``assumptions`` found them unsatisfiable: a subset of the
        assumptions that cannot hold together, as the CPMpy expressions given.

        The core is the engine's: one learning search with the assumptions as its first
        decisions, and those its final conflict rests on (MiniSat's ``analyzeFinal``). It need
        not be minimal; ``self.native_model.core(…, minimal=True)`` minimises it."""
        assert self.cpm_status.exitstatus == ExitStatus.UNSATISFIABLE, \
            "get_core(): the last solve must have found the assumptions unsatisfiable"
        assert self.assumption_vars is not None, "get_core(): the last solve had no assumptions"
        core = self.rcsp_model.core(self._assumption_natives)
        if core is None:  # cannot happen: the engine has just proven them unsatisfiable
            raise RuntimeError("rcsp: the assumptions are satisfiable after all")
        chosen = {id(native) for native in core}
        return [cpm for cpm, native in zip(self.assumption_vars, self._assumption_natives)
                if id(native) in chosen]

    def solveAll(self, display=None, time_limit: Optional[float] = None,
                 solution_limit: Optional[int] = None, call_from_model: bool = False, **kwargs):
        """Every solution (at most ``solution_limit``), each shown with ``display`` as it is found;
        the number found. The engine enumerates them in one search.

        Under an objective, every optimal solution: the engine first finds the optimum, then
        enumerates the solutions with that value. The objective stays set, but its value is then a
        constraint of the solver (as CPMpy's own ``solveAll`` leaves its nogoods behind)."""
        if solution_limit is not None and solution_limit <= 0:
            raise ValueError(f"solution_limit must be positive, but got {solution_limit}")
        started = time.time()
        if self.has_objective():
            result = self._run(time_limit, None, **kwargs)
            if self.cpm_status.exitstatus != ExitStatus.OPTIMAL:
                # No optimum proven: a solution found before the time ran out need not be optimal,
                # so none is known to be (as CPMpy's Exact interface answers).
                if self.cpm_status.exitstatus != ExitStatus.UNSATISFIABLE:
                    self.cpm_status.exitstatus = ExitStatus.UNKNOWN
                self._read(None, self.cpm_status)
                return 0
            if time_limit is not None:
                time_limit = max(time_limit - (time.time() - started), 1e-3)
            if not call_from_model:
                warnings.warn("Adding the optimum as a constraint to find all optimal solutions, "
                              "solver state will be invalid after this call!")
            optimum = result.objective
            self.rcsp_model.add(self._native_objective == optimum)
            self.rcsp_model.satisfy()
            try:
                result = self._run(time_limit, display, all_solutions=True,
                                   solution_limit=solution_limit, **kwargs)
            finally:
                self._set_native_objective()
        else:
            result = self._run(time_limit, display, all_solutions=True,
                               solution_limit=solution_limit, **kwargs)
        # CPMpy's statuses for an enumeration, which `_run` gave: OPTIMAL once every solution is
        # found, FEASIBLE when a limit stopped it first, UNSATISFIABLE when there is none.
        if self._read(result, self.cpm_status) and self.has_objective():
            self.objective_value_ = optimum  # the enumeration itself ran without the objective
        self.cpm_status.solve_time = max(time.time() - started, 1e-9)
        return 0 if result is None else len(result.solutions)

    def _run(self, time_limit, display, **options):
        """Runs the engine, setting ``cpm_status`` (its exit status and solve time); the engine's
        result, or ``None`` when there was no time to run it."""
        if time_limit is not None and time_limit < 0:
            raise ValueError(f"Time limit cannot be negative, but got {time_limit}")
        self.solver_vars(list(self.user_vars))  # every user variable gets a value, constrained or not
        if display is not None:
            options["on_solution"] = self._on_solution(display)
        started = time.time()
        # The engine takes a positive time limit only; CPMpy's 0 means no time at all.
        result = None if time_limit == 0 else self.rcsp_model.solve(time_limit=time_limit, **options)
        self.cpm_status = SolverStatus(self.name)
        self.cpm_status.solve_time = max(time.time() - started, 1e-9)
        status = "UNKNOWN" if result is None else result.status
        if status == "OPTIMAL":
            # The engine's OPTIMAL is "the search is complete": without an objective, CPMpy calls
            # one solution FEASIBLE and a complete enumeration OPTIMAL.
            complete = self.has_objective() or options.get("all_solutions", False)
            self.cpm_status.exitstatus = ExitStatus.OPTIMAL if complete else ExitStatus.FEASIBLE
        elif status == "FEASIBLE":
            self.cpm_status.exitstatus = ExitStatus.FEASIBLE
        elif status == "UNSATISFIABLE":
            self.cpm_status.exitstatus = ExitStatus.UNSATISFIABLE
        else:
            self.cpm_status.exitstatus = ExitStatus.UNKNOWN
        return result

    def _read(self, result, status) -> bool:
        """Whether ``status`` has a solution; sets the user variables' values (and the objective's)
        from ``result``'s last solution, or clears them."""
        has_solution = self._solve_return(status)
        self.objective_value_ = None
        if has_solution:
            self._load(result.solution, self.user_vars)
            if self.has_objective():
                self.objective_value_ = result.objective
        else:
            for cpm_var in self.user_vars:
                cpm_var._value = None
        return has_solution

    def _load(self, solution, cpm_vars):
        """Sets the values of ``cpm_vars`` from one of the engine's solutions."""
        for cpm_var in cpm_vars:
            value = solution[self.solver_var(cpm_var)]
            cpm_var._value = bool(value) if isinstance(cpm_var, _BoolVarImpl) else int(value)

    def _on_solution(self, display):
        """The engine's ``on_solution`` for CPMpy's ``display``: the values it reads are set, then
        it is printed or called."""
        if isinstance(display, Expression) or is_any_list(display):
            shown = get_variables(display)
        elif callable(display):
            shown = list(self.user_vars)  # a function may read any variable
        else:
            raise TypeError(f"display: an expression, a list of them or a function, not {display!r}")
        # A display may name variables the model does not have: they become unconstrained ones.
        self.solver_vars(shown)

        def on_solution(solution):
            self._load(solution, shown)
            self.print_display(display)

        return on_solution


# Python's comparisons build the engine's constraints (a constant on the left is reflected to the
# expression's own method), and compare two constants as numbers.
_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def register(name: str = "rcsp", as_default: bool = False) -> None:
    """Adds ``CPM_rcsp`` to CPMpy's ``SolverLookup`` under ``name`` (first, as CPMpy's default
    solver, when ``as_default``). Idempotent; CPMpy has no plug-in mechanism, so its lookup
    method is wrapped."""
    original = SolverLookup.base_solvers.__func__
    registered = dict(getattr(original, "_rcsp_registered", {}))
    if registered.get(name) == (CPM_rcsp, as_default):
        return
    base = getattr(original, "_rcsp_original", original)
    registered[name] = (CPM_rcsp, as_default)

    def base_solvers(cls):
        solvers = [entry for entry in base(cls) if entry[0] not in registered]
        for solver_name, (solver_class, first) in registered.items():
            if first:
                solvers.insert(0, (solver_name, solver_class))
            else:
                solvers.append((solver_name, solver_class))
        return solvers

    base_solvers._rcsp_registered = registered
    base_solvers._rcsp_original = base
    SolverLookup.base_solvers = classmethod(base_solvers)


register()
