"""What Python costs: building a model of 10^5 constraints from Python against the same model
built in Rust, and a solve of about a second from Python against the same lowered model solved by
`fzn-csp` (both in one run, median of three).

    python bench/overhead.py --fzn-csp target/release/fzn-csp --baseline target/release/examples/python_overhead_baseline
"""

import argparse
import statistics
import subprocess
import tempfile
import time

import rcsp

N = 100_000


def build_python():
    started = time.perf_counter()
    m = rcsp.Model()
    x = m.int_vars(N + 1, 0, 10, "x")
    for i in range(N):
        m += x[i] + x[i + 1] <= 10
    built = time.perf_counter() - started
    # The engine's model is compiled at the first solve: a solve with a time limit too short to
    # search measures it (its time less its search's).
    r = m.solve(time_limit=0.001)
    compiled = r.solve_time - r.statistics["search_time"]
    return built, compiled


def queens(n):
    m = rcsp.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += rcsp.all_different(q)
    m += rcsp.all_different([q[i] + i for i in range(n)])
    m += rcsp.all_different([q[i] - i for i in range(n)])
    return m, {"all_solutions": True}


def golomb(marks):
    m = rcsp.Model()
    x = m.int_vars(marks, 0, marks * marks, "mark")
    m += x[0] == 0
    m += rcsp.increasing(x)
    diffs = [x[j] - x[i] for i in range(marks) for j in range(i + 1, marks)]
    m += rcsp.all_different(diffs)
    m += x[1] - x[0] < x[marks - 1] - x[marks - 2]
    m.minimize(x[marks - 1])
    return m, {}


def solve_both(make, fzn_csp, runs=3):
    py, rust = [], []
    for _ in range(runs):
        m, options = make()
        started = time.perf_counter()
        r = m.solve(**options)
        py.append(time.perf_counter() - started)
        text = m.to_flatzinc()
        with tempfile.NamedTemporaryFile("w", suffix=".fzn") as f:
            f.write(text)
            f.flush()
            args = [fzn_csp, "-s"] + (["-a"] if options.get("all_solutions") else []) + [f.name]
            started = time.perf_counter()
            out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
            rust.append(time.perf_counter() - started)
        assert r.status == "OPTIMAL", r
    return statistics.median(py), statistics.median(rust)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fzn-csp", default="target/release/fzn-csp")
    parser.add_argument("--baseline", default="target/release/examples/python_overhead_baseline")
    args = parser.parse_args()
    built, compiled = [], []
    rust_build = []
    for _ in range(3):
        b, c = build_python()
        built.append(b)
        compiled.append(c)
        out = subprocess.run([args.baseline, str(N)], capture_output=True, text=True, check=True)
        rust_build.append(float(out.stdout.split()[0]))
    b, c, r = statistics.median(built), statistics.median(compiled), statistics.median(rust_build)
    print(f"build {N} constraints: Python {b:.3f} s (+ compile {c:.3f} s) vs Rust {r:.3f} s: "
          f"{(b + c) / r:.2f}x")
    for name, make in [("queens 12, all solutions", lambda: queens(12)), ("golomb 9", lambda: golomb(9))]:
        py, rust = solve_both(make, args.fzn_csp)
        print(f"{name}: Python {py:.3f} s vs fzn-csp {rust:.3f} s: {py / rust:.3f}x")


if __name__ == "__main__":
    main()
