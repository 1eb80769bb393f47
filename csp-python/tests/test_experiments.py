"""The N-queens experiments from Python: traces against the committed snapshots, the comparison
and the estimates against trees counted here, and the records' consistency with each other."""

import time
from pathlib import Path

import pytest
from support import ctrl_c_after, is_solution

import rcsp

SNAPSHOTS = Path(__file__).resolve().parents[2] / "tests" / "snapshots"

# OEIS A000170, n = 1..10.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]

# The configurations of the committed trace snapshots (tests/traces.rs): Stone & Stone's LEX,
# MIN with forward checking, and MIN with random ties under seed 7.
SNAPSHOT_CONFIGS = {
    "lex": dict(order="lex", propagation="check-past"),
    "min_fc": dict(order="min"),
    "min_random_ties_seed7": dict(order="min", ties="random", seed=7),
}


def lex_tree_size(n):
    """The nodes of the whole LEX tree under check-past, root included: every placement of the
    first rows in which no two queens attack, counted by a search written here."""

    def extend(placed):
        row = len(placed)
        if row == n:
            return 0
        total = 0
        for column in range(n):
            if all(c != column and abs(c - column) != row - r for r, c in enumerate(placed)):
                total += 1 + extend(placed + [column])
        return total

    return 1 + extend([])


def snapshot(name):
    """The body of a committed insta snapshot (after its front matter)."""
    text = (SNAPSHOTS / f"traces__{name}.snap").read_text()
    return text.split("---\n", 2)[2]


def render(records):
    """The engine's documented trace format, written from the records."""
    lines = []
    for r in records:
        kind = r["event"]
        if kind == "stopped":
            lines.append(f"... stopped after {r['events']} events")
            continue
        head = f"{r['level']:>3} {kind:<8}"
        if kind == "enter":
            lines.append(f"{head} {r['var']} choices={r['choices']}")
        elif kind in ("assign", "undo"):
            lines.append(f"{head} {r['var']}={r['value']}")
        elif kind in ("decide", "retract"):
            lines.append(f"{head} {r['var']}{r['relation']}{r['value']}")
        elif kind == "deadend":
            lines.append(head.rstrip())
        elif kind == "restart":
            lines.append(f"{head} count={r['count']}")
        else:
            names = " ".join(f"q{row}={v}" for row, v in enumerate(r["values"]))
            lines.append(f"{head.rstrip()} {names}")
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("n", [4, 5, 6])
@pytest.mark.parametrize("name", sorted(SNAPSHOT_CONFIGS))
def test_traces_are_the_committed_snapshots(name, n):
    options = SNAPSHOT_CONFIGS[name]
    expected = snapshot(f"{name}_{n}")
    assert rcsp.queens_trace(n, text=True, **options) == expected
    records = rcsp.queens_trace(n, **options)
    assert render(records) == expected
    # Both encodings make the same tree.
    assert rcsp.queens_trace(n, encoding="pairwise", **options) == records
    assert records[-1]["event"] == "solution"
    assert is_solution(records[-1]["values"], n)


@pytest.mark.parametrize("n", range(1, 9))
def test_a_whole_trace_holds_every_solution_once(n):
    records = rcsp.queens_trace(n, solutions=None, order="lex", propagation="check-past")
    found = [tuple(r["values"]) for r in records if r["event"] == "solution"]
    assert len(found) == A000170[n - 1] == len(set(found))
    assert all(is_solution(p, n) for p in found)
    # Every node is an assignment: the tree counted here has the assignments and the root.
    assigns = sum(r["event"] == "assign" for r in records)
    assert assigns + 1 == lex_tree_size(n)
    assert assigns == sum(r["event"] == "undo" for r in records)


def test_a_trace_limit_stops_the_search_and_says_so():
    records = rcsp.queens_trace(8, limit=5)
    assert len(records) == 6
    assert records[-1] == {"event": "stopped", "events": 5}
    text = rcsp.queens_trace(8, limit=5, text=True)
    assert text.endswith("... stopped after 5 events\n")
    assert render(records) == text


def test_the_fast_preset_traces_restarts_and_the_same_seed_gives_the_same_trace():
    a = rcsp.queens_trace(60, seed=3)
    assert a == rcsp.queens_trace(60, seed=3)
    assert a != rcsp.queens_trace(60, seed=4)
    assert is_solution(a[-1]["values"], 60)
    assert render(a) == rcsp.queens_trace(60, seed=3, text=True)


@pytest.mark.parametrize("n", [6, 7, 8])
def test_the_comparison_gives_the_tree_counted_here(n):
    cells = rcsp.queens_compare([n], orders=["lex"], solutions=[1])
    assert [c["solutions"] for c in cells] == [1, None]
    first, whole = cells
    assert whole["actual_tree_size"] == lex_tree_size(n)
    assert whole["within_budget"] and not whole["no_solution"]
    # After the whole search, the online estimate is the tree itself.
    assert whole["estimated_tree_size"] == pytest.approx(lex_tree_size(n))
    assert first["propagation"] == "check-past"
    # Backtracks to the first solution are the undos before it in the trace.
    trace = rcsp.queens_trace(n, order="lex", propagation="check-past")
    assert first["backtracks_per_solution"] == sum(r["event"] == "undo" for r in trace)


def test_the_comparison_is_plain_records_over_every_cell():
    cells = rcsp.queens_compare([4, 5], solutions=[1, 2])
    # Two boards, two orderings, two terse searches and the whole tree each.
    assert len(cells) == 2 * 2 * 3
    assert {(c["n"], c["order"], c["solutions"]) for c in cells} == {
        (n, o, k) for n in (4, 5) for o in ("lex", "min") for k in (1, 2, None)
    }
    assert {c["propagation"] for c in cells if c["order"] == "min"} == {"fc"}
    assert set(cells[0]) == {
        "n",
        "order",
        "propagation",
        "solutions",
        "within_budget",
        "no_solution",
        "backtracks_per_solution",
        "estimated_tree_size",
        "actual_tree_size",
    }
    no_solutions = rcsp.queens_compare([3], orders=["min"], solutions=[1])
    assert all(c["no_solution"] and c["backtracks_per_solution"] is None for c in no_solutions)
    over = rcsp.queens_compare([10], orders=["lex"], solutions=[1], budget=50)
    assert not over[1]["within_budget"] and over[1]["actual_tree_size"] is None


def test_random_ties_average_over_seeds():
    one = rcsp.queens_compare([10], orders=["min"], solutions=[1], ties_random=True, seeds=1)
    five = rcsp.queens_compare([10], orders=["min"], solutions=[1], ties_random=True, seeds=5)
    per_seed = [
        sum(
            r["event"] == "undo"
            for r in rcsp.queens_trace(10, order="min", ties="random", seed=s)
        )
        for s in range(5)
    ]
    assert one[0]["backtracks_per_solution"] == per_seed[0]
    assert five[0]["backtracks_per_solution"] == pytest.approx(sum(per_seed) / 5)


@pytest.mark.parametrize("order", ["lex", "min"])
def test_a_profile_sums_to_its_trace(order):
    n = 9
    profile = rcsp.queens_profile(n, order)
    propagation = "check-past" if order == "lex" else "fc"
    trace = rcsp.queens_trace(n, order=order, propagation=propagation)
    assert [p["level"] for p in profile] == list(range(1, len(profile) + 1))
    for p in profile:
        at = [r for r in trace if r.get("level") == p["level"]]
        entered = [r for r in at if r["event"] == "enter"]
        assert p["expanded"] == len(entered)
        assert p["choices"] == sum(r["choices"] for r in entered)
        assert p["backtracks"] == sum(r["event"] == "undo" for r in at)
        nodes = sum(r["event"] == "assign" for r in at) + (p["level"] == 1)
        assert p["nodes"] == nodes
        if p["expanded"]:
            assert p["avg_choices"] == pytest.approx(p["choices"] / p["expanded"])


def test_the_online_estimate_of_a_whole_search_is_the_tree():
    n = 8
    whole = rcsp.queens_estimate(n, solutions=10**6, order="lex", propagation="check-past")
    assert whole["method"] == "online" and whole["outcome"] == "estimated"
    assert whole["solutions_found"] == A000170[n - 1]
    assert whole["nodes_visited"] == lex_tree_size(n)
    assert whole["estimated_tree_size"] == pytest.approx(lex_tree_size(n))
    assert whole["estimated_solutions"] == pytest.approx(A000170[n - 1])
    assert (whole["order"], whole["propagation"], whole["ties"]) == ("lex", "check-past", "low")


def test_knuth_probes_estimate_the_tree_counted_here():
    n = 8
    estimate = rcsp.queens_estimate(n, probes=20_000, order="lex", propagation="check-past")
    assert estimate["method"] == "probes" and estimate["probes"] == 20_000
    # Unbiased: with a fixed seed the run is the same every time, and within four standard
    # errors of the true size.
    truth = lex_tree_size(n)
    assert abs(estimate["estimated_tree_size"] - truth) < 4 * estimate["std_error"]
    assert abs(estimate["estimated_solutions"] - 92) < 4 * estimate["solutions_std_error"]
    again = rcsp.queens_estimate(n, probes=20_000, order="lex", propagation="check-past")
    assert again["estimated_tree_size"] == estimate["estimated_tree_size"]
    other = rcsp.queens_estimate(n, probes=20_000, order="lex", propagation="check-past", seed=1)
    assert other["estimated_tree_size"] != estimate["estimated_tree_size"]


def test_a_time_limit_ends_the_probes_and_the_estimate_covers_those_made():
    started = time.monotonic()
    result = rcsp.queens_estimate(40, probes=10**12, time_limit=0.3)
    assert time.monotonic() - started < 2
    assert result["outcome"] == "limit" and result["limit"] == "time"
    assert 0 < result["probes"] < 10**12
    assert result["estimated_tree_size"] > 1


def test_a_node_limit_ends_the_online_estimate():
    result = rcsp.queens_estimate(30, order="lex", propagation="check-past", node_limit=100)
    assert result["outcome"] == "limit" and result["limit"] == "nodes"
    assert result["nodes_visited"] <= 101


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rcsp.queens_trace(8, order="max"), "unknown order `max`: expected one of lex"),
        (lambda: rcsp.queens_trace(8, ties="first"), "unknown ties `first`"),
        (lambda: rcsp.queens_trace(8, values="up"), "unknown values `up`"),
        (lambda: rcsp.queens_trace(8, propagation="ac3"), "unknown propagation `ac3`"),
        (lambda: rcsp.queens_trace(8, restarts="geometric"), "unknown restarts `geometric`"),
        (lambda: rcsp.queens_trace(8, encoding="sat"), "encoding"),
        (lambda: rcsp.queens_trace(0), "at least 1"),
        (lambda: rcsp.queens_trace(8, limit=0), "at least 1"),
        (lambda: rcsp.queens_estimate(8, probes=10, node_limit=5), "probes count no nodes"),
        (lambda: rcsp.queens_estimate(8, probes=0), "probes must be at least 1"),
        (lambda: rcsp.queens_estimate(8, time_limit=-1), "time_limit"),
        (lambda: rcsp.queens_compare([]), "at least one"),
        (lambda: rcsp.queens_compare([0, 8]), "start at 1"),
        (lambda: rcsp.queens_compare([8], orders=["lex", "best"]), "unknown order `best`"),
        (lambda: rcsp.queens_profile(8, "nope"), "unknown order `nope`"),
        (lambda: rcsp.queens_compare([10**9]), "too large"),
    ],
)
def test_bad_arguments_raise_clear_errors(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()


def test_wrong_types_raise_type_errors():
    with pytest.raises(TypeError):
        rcsp.queens_trace("8")
    with pytest.raises(TypeError):
        rcsp.queens_compare(8)


def test_search_options_lists_the_names_the_keywords_take():
    options = rcsp.search_options()
    assert options["order"] == ["lex", "min", "dom-wdeg"]
    assert "check-past" in options["propagation"]
    for order in options["order"]:
        assert rcsp.queens_trace(6, order=order)[-1]["event"] == "solution"


def test_ctrl_c_stops_a_comparison_within_a_fifth_of_a_second():
    sent = ctrl_c_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        rcsp.queens_compare(list(range(14, 30)), budget=10**12)
    assert time.monotonic() - sent["at"] < 0.2


def test_ctrl_c_stops_probes_within_a_fifth_of_a_second():
    sent = ctrl_c_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        rcsp.queens_estimate(200, probes=10**12)
    assert time.monotonic() - sent["at"] < 0.2


def test_stone_and_stone_table_2_lex_column():
    # Stone & Stone (1987), Table 2, "1 LEX": backtracks to the first solution, N = 7..14.
    published = [2, 105, 32, 92, 41, 249, 98, 1885]
    cells = rcsp.queens_compare(list(range(7, 15)), orders=["lex"], solutions=[1])
    first = [c["backtracks_per_solution"] for c in cells if c["solutions"] == 1]
    assert first == published
