"""pytest configuration for CPMpy's own tests, run against rcsp.

``fetch.py`` copies five test files from CPMpy 1.1.1's sdist into this directory; the sdist lacks
the ``conftest.py`` and ``utils.py`` they were written for, so these two are ours, and smaller.
What the tests need from a conftest:

- ``--solver NAME[,NAME…]``: the solvers the solver-independent tests run on (here ``rcsp`` by
  default), and the ``solver`` fixture giving it to a test;
- ``pytest_generate_tests``: a test marked ``generate_constraints.with_args(generator)`` runs once
  per constraint ``generator(solver)`` yields, with the ``constraint`` fixture;
- the markers ``requires_solver(names…)`` (the test runs on those solvers only: it is deselected
  unless one of them is asked for, as CPMpy's conftest does), ``requires_dependency(modules…)``
  (skipped when one is not installed) and ``depends_on_solver``.

Importing ``rcsp.cpmpy`` registers the ``"rcsp"`` solver, and registering it as CPMpy's default
makes the tests that call ``solve()`` without naming a solver run on rcsp too.

``EXPECTED.md`` lists every test of these files that does not pass on rcsp, with its reason: an
expected failure (marked ``xfail``, strictly, so that it fails once it passes and the list shrinks)
or a skip, ours or one a test makes by itself. When the solver under test is ``rcsp`` alone, a skip
that is not listed, or a listed skip or xfail that no longer happens, fails the run.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

import rcsp.cpmpy

rcsp.cpmpy.register(as_default=True)

import cpmpy as cp  # noqa: E402 (after registration, so that every lookup sees rcsp)

EXPECTED_FILE = Path(__file__).with_name("EXPECTED.md")
DEFAULT_SOLVER = "rcsp"


# --------------------------------------------------------------------------- the solver option


def pytest_addoption(parser):
    parser.addoption(
        "--solver",
        default=DEFAULT_SOLVER,
        help=f"comma-separated solvers for the solver-independent tests (default: {DEFAULT_SOLVER})",
    )
    parser.addoption(
        "--all-solutions",
        action="store_true",
        help="test_constraints.py checks every solution, not one (its own ALL_SOLS switch)",
    )


def solvers_of(config) -> list[str]:
    """The solvers asked for with ``--solver``; an unknown or uninstalled one is an error, so that
    a typo does not pass silently by running nothing."""
    names = [s.strip() for s in config.getoption("--solver").split(",") if s.strip()]
    if not names:
        raise pytest.UsageError("--solver names no solver")
    for name in names:
        try:
            if not cp.SolverLookup.lookup(name).supported():
                raise pytest.UsageError(f"--solver: {name} is not installed")
        except ValueError as e:
            raise pytest.UsageError(f"--solver: {e}") from None
    return names


def pytest_configure(config):
    for marker, doc in {
        "requires_solver(*names)": "runs on these solvers only (deselected unless asked for)",
        "requires_dependency(*modules)": "skipped unless these modules are installed",
        "generate_constraints(generator)": "one test per constraint generator(solver) yields",
        "depends_on_solver": "uses a solver without the solver fixture",
        # pytest-rerunfailures' marker; that plugin is not used here, so a flaky test fails.
        "flaky(reruns)": "rerun by pytest-rerunfailures (not installed: no reruns)",
    }.items():
        config.addinivalue_line("markers", f"{marker}: {doc}")
    config._rcsp_solvers = solvers_of(config)
    # The list in EXPECTED.md is rcsp's: it is applied when rcsp is the one solver under test.
    config._rcsp_expected = load_expected() if config._rcsp_solvers == [DEFAULT_SOLVER] else None


@pytest.fixture
def solver(request):
    """The solver a solver-independent test runs on: its parameter, or the one ``--solver``."""
    if hasattr(request, "param"):
        return request.param
    return request.config._rcsp_solvers[0]


@pytest.fixture
def constraint(request):
    """The constraint a ``generate_constraints`` test checks (set by ``pytest_generate_tests``)."""
    return request.param


@pytest.fixture(autouse=True)
def _fresh_variable_names():
    """Restores CPMpy's variable-name counters after a test that reset them.

    ``test_globalconstraints.py`` sets them back to 0 before each test; a variable created after
    that (an auxiliary one of a decomposition, in a later ``test_constraints.py`` test) can then
    take the name of one the constraint generators created at collection, and a solver interface
    knows variables by name: the two become one. CPMpy runs its files alphabetically, so it never
    meets this; here the files may be given in any order."""
    from cpmpy.expressions.variables import _BoolVarImpl, _IntVarImpl

    before = (_BoolVarImpl.counter, _IntVarImpl.counter)
    yield
    _BoolVarImpl.counter = max(before[0], _BoolVarImpl.counter)
    _IntVarImpl.counter = max(before[1], _IntVarImpl.counter)


def pytest_generate_tests(metafunc):
    if "solver" not in metafunc.fixturenames:
        return
    solvers = metafunc.config._rcsp_solvers
    generate = metafunc.definition.get_closest_marker("generate_constraints")
    if generate is not None:
        generator = generate.args[0]
        cases = [(s, c) for s in solvers for c in generator(s)]
        metafunc.parametrize(("solver", "constraint"), cases, ids=str)
        return
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0]
        if "solver" in (names.split(",") if isinstance(names, str) else names):
            return  # the test names its solvers itself
    required = metafunc.definition.get_closest_marker("requires_solver")
    if required is not None:
        metafunc.parametrize("solver", list(required.args))
    elif len(solvers) > 1:
        metafunc.parametrize("solver", solvers)


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect: the stale-row check sees every file
def pytest_collection_modifyitems(config, items):
    config._rcsp_files = {item.path.name for item in items}
    solvers = config._rcsp_solvers
    kept, deselected = [], []
    for item in items:
        required = item.get_closest_marker("requires_solver")
        if required is not None:
            callspec = getattr(item, "callspec", None)
            wanted = callspec.params.get("solver") if callspec else None
            if wanted not in solvers:
                deselected.append(item)  # another solver's test, as CPMpy's conftest filters it
                continue
        dependency = item.get_closest_marker("requires_dependency")
        if dependency is not None:
            missing = [m for m in dependency.args if importlib.util.find_spec(m) is None]
            if missing:
                item.add_marker(pytest.mark.skip(reason=f"Dependency {missing} not installed"))
        kept.append(item)
    generated = sys.modules.get("test_constraints")  # imported if its tests (or test_solvers) are
    if generated is not None and config.getoption("--all-solutions"):
        generated.ALL_SOLS = True
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept
    expected = config._rcsp_expected
    if expected is not None:
        expected.apply(items)


# --------------------------------------------------------------------------- EXPECTED.md


class Entry:
    """A row of ``EXPECTED.md``: the tests its pattern matches, what happens to them, and why."""

    def __init__(self, kind: str, pattern: str, reason: str, line: int):
        self.kind = kind  # "xfail", "skip" (both applied here) or "cpmpy-skip" (the test's own)
        self.pattern = pattern
        self.reason = reason
        self.line = line
        # `*` is the only wildcard: test ids are full of `[`, `]` and `?`, which fnmatch would read.
        self.regex = re.compile(".*".join(re.escape(part) for part in pattern.split("*")) + r"\Z")
        self.matched = 0

    def matches(self, nodeid: str) -> bool:
        return self.regex.match(nodeid) is not None


# A section's heading names the kind of its rows.
_SECTIONS = {
    "expected failures": "xfail",
    "skipped by us": "skip",
    "skipped by cpmpy's tests": "cpmpy-skip",
}
_ROW = re.compile(r"^\|\s*`(?P<pattern>[^`]+)`\s*\|\s*(?P<reason>.*?)\s*\|\s*$")


class Expected:
    """The rows of ``EXPECTED.md``, matched against the collected tests and their outcomes."""

    def __init__(self, entries: list[Entry]):
        self.entries = entries
        self.of_test: dict[str, Entry] = {}

    def apply(self, items):
        for item in items:
            entry = next((e for e in self.entries if e.matches(test_id(item))), None)
            if entry is None:
                continue
            entry.matched += 1
            self.of_test[item.nodeid] = entry
            if entry.kind == "xfail":
                item.add_marker(pytest.mark.xfail(reason=entry.reason, strict=True))
            elif entry.kind == "skip":
                item.add_marker(pytest.mark.skip(reason=entry.reason))

    def check(self, report):
        """Turns ``report`` into a failure if the test skipped without being listed (or for another
        reason than listed), or was listed as skipping by itself and did not."""
        entry = self.of_test.get(report.nodeid)
        skipped = report.skipped and not hasattr(report, "wasxfail")
        if skipped and entry is None:
            _fail(report, f"skipped, and not listed in EXPECTED.md: {skip_reason(report)!r}")
        elif skipped and entry.kind == "cpmpy-skip" and skip_reason(report) != entry.reason:
            _fail(report, f"skipped for another reason than EXPECTED.md (line {entry.line}) gives: "
                          f"{skip_reason(report)!r}")
        elif entry is not None and entry.kind == "cpmpy-skip" and report.when == "call" and report.passed:
            _fail(report, f"listed in EXPECTED.md (line {entry.line}) as skipping, but it ran: "
                          "remove it from the list")


def test_id(item) -> str:
    """``item``'s node id from this directory (``test_x.py::…``), whichever the rootdir."""
    return item.path.name + item.nodeid[item.nodeid.index("::"):]


def skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return longrepr[2].removeprefix("Skipped: ")
    return str(longrepr)


def _fail(report, message: str):
    report.outcome = "failed"
    report.longrepr = message


def load_expected() -> Expected:
    kind = None
    entries = []
    for number, line in enumerate(EXPECTED_FILE.read_text().splitlines(), start=1):
        if line.startswith("#"):
            heading = line.lstrip("#").strip().lower()
            kind = next((k for title, k in _SECTIONS.items() if heading.startswith(title)), None)
            continue
        row = _ROW.match(line)
        if row and kind is not None:
            entries.append(Entry(kind, row["pattern"], row["reason"], number))
    return Expected(entries)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    expected = item.config._rcsp_expected
    if expected is not None:
        expected.check(report)
    return report


def stale_entries(config) -> list[Entry]:
    """The rows that match no test of a file that was collected in full (without -k, -m or a
    node id, under which most rows match nothing, and that says nothing)."""
    expected = config._rcsp_expected
    if expected is None or config.option.keyword or config.option.markexpr:
        return []
    if any("::" in arg for arg in config.args):
        return []
    files = getattr(config, "_rcsp_files", set())
    return [e for e in expected.entries if e.matched == 0 and e.pattern.split("::")[0] in files]


def pytest_sessionfinish(session, exitstatus):
    if stale_entries(session.config) and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config):
    if config._rcsp_expected is None:
        terminalreporter.write_line(
            "EXPECTED.md not applied: it lists rcsp's outcomes, and --solver is not rcsp alone")
    for entry in stale_entries(config):
        terminalreporter.write_line(
            f"EXPECTED.md line {entry.line}: `{entry.pattern}` matches no test: remove it", red=True)
