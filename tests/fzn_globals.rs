//! Every global the solver library declares native, and the Boolean, comparison, arithmetic, element
//! and set builtins posted on the catalogue, through `fzn-csp -a` on small FlatZinc models: the
//! number of solutions printed must be the number of assignments a brute-force enumeration in this
//! file accepts, by the constraint's MiniZinc definition written out here again (independent of the
//! engine and of the front end's own checkers).

use std::process::Command;

/// A variable of a test model: its FlatZinc name and its values `lo..=hi` (a Boolean: `0..=1`,
/// declared `var bool`, as FlatZinc types it).
struct Var {
    name: &'static str,
    lo: i64,
    hi: i64,
    boolean: bool,
}

const fn var(name: &'static str, lo: i64, hi: i64) -> Var {
    Var {
        name,
        lo,
        hi,
        boolean: false,
    }
}

const fn boolean(name: &'static str) -> Var {
    Var {
        name,
        lo: 0,
        hi: 1,
        boolean: true,
    }
}

/// Runs `fzn-csp -a` on the variables and `constraints`, and returns the number of solutions.
fn count_solutions(vars: &[Var], constraints: &[&str]) -> usize {
    let mut text = String::new();
    for v in vars {
        let domain = if v.boolean {
            "bool".to_owned()
        } else {
            format!("{}..{}", v.lo, v.hi)
        };
        text.push_str(&format!("var {domain}: {} :: output_var;\n", v.name));
    }
    for c in constraints {
        text.push_str(&format!("constraint {c};\n"));
    }
    text.push_str("solve satisfy;\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.fzn");
    std::fs::write(&path, &text).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .arg("-a")
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.ends_with("==========\n"), "{text}\n{stdout}");
    stdout.matches("----------\n").count()
}

/// The number of assignments of `vars` that `accept` takes, by enumeration.
fn brute_force(vars: &[Var], accept: &dyn Fn(&[i64]) -> bool) -> usize {
    let mut values: Vec<i64> = vars.iter().map(|v| v.lo).collect();
    let mut count = 0;
    loop {
        count += usize::from(accept(&values));
        let mut i = 0;
        loop {
            if i == vars.len() {
                return count;
            }
            if values[i] < vars[i].hi {
                values[i] += 1;
                break;
            }
            values[i] = vars[i].lo;
            i += 1;
        }
    }
}

/// Checks that the model and the brute force agree, and that the constraint is not trivial (it
/// refuses something and accepts something), so that the comparison means something.
fn check(vars: &[Var], constraints: &[&str], accept: &dyn Fn(&[i64]) -> bool) {
    let expected = brute_force(vars, accept);
    let total: usize = vars.iter().map(|v| (v.hi - v.lo + 1) as usize).product();
    assert!(
        0 < expected && expected < total,
        "{constraints:?}: {expected} of {total}"
    );
    assert_eq!(
        count_solutions(vars, constraints),
        expected,
        "{constraints:?}"
    );
}

#[test]
fn circuit_counts_the_hamiltonian_cycles() {
    // Nodes numbered from 1, as FlatZinc's own arrays, and from 0, as a MiniZinc array over 0..n-1.
    for first in [1, 0] {
        let vars = [
            var("a", first - 1, first + 4),
            var("b", first - 1, first + 4),
            var("c", first - 1, first + 4),
            var("d", first - 1, first + 4),
            var("e", first - 1, first + 4),
        ];
        let constraint = format!("csp_circuit([a, b, c, d, e], {first})");
        check(&vars, &[&constraint], &|x| {
            // Follow the successors from the first node: n steps visit every node and come back.
            let mut seen = [false; 5];
            let mut node = 0usize;
            for _ in 0..5 {
                let next = x[node] - first;
                if !(0..5).contains(&next) || next as usize == node || seen[next as usize] {
                    return false;
                }
                seen[next as usize] = true;
                node = next as usize;
            }
            node == 0
        });
    }
}

#[test]
fn inverse_with_offsets_counts_the_inverse_permutations() {
    // f is indexed from 5 and takes g's indices, which start at 0; g the other way round.
    let vars = [
        var("f5", -1, 3),
        var("f6", -1, 3),
        var("f7", -1, 3),
        var("g0", 4, 8),
        var("g1", 4, 8),
        var("g2", 4, 8),
    ];
    check(
        &vars,
        &["csp_inverse([f5, f6, f7], 5, [g0, g1, g2], 0)"],
        &|x| {
            let (f, g) = (&x[..3], &x[3..]);
            let channel = |from: &[i64], from_first: i64, to: &[i64], to_first: i64| {
                (0..from.len()).all(|i| {
                    let j = from[i] - to_first;
                    (0..to.len() as i64).contains(&j) && to[j as usize] == i as i64 + from_first
                })
            };
            channel(f, 5, g, 0) && channel(g, 0, f, 5)
        },
    );
}

#[test]
fn among_counts_the_members_of_the_set() {
    let vars = [
        var("n", 0, 4),
        var("a", 0, 3),
        var("b", 0, 3),
        var("c", 0, 3),
        var("d", 1, 4),
    ];
    check(&vars, &["fzn_among(n, [a, b, c, d, 2], {1, 3, 4})"], &|x| {
        let inside = [x[1], x[2], x[3], x[4], 2]
            .iter()
            .filter(|&&v| v == 1 || v == 3 || v == 4)
            .count();
        x[0] == inside as i64
    });
}

/// MiniZinc's `global_cardinality`: each count is its value's number of occurrences, and the counts
/// add up to at most the number of variables; closed, every variable takes a covered value.
fn gcc(x: &[i64], cover: &[i64], counts: &[i64], closed: bool) -> bool {
    cover
        .iter()
        .zip(counts)
        .all(|(v, &c)| x.iter().filter(|&xi| xi == v).count() as i64 == c)
        && counts.iter().sum::<i64>() <= x.len() as i64
        && (!closed || x.iter().all(|xi| cover.contains(xi)))
}

#[test]
fn global_cardinality_counts_each_covered_value() {
    let vars = [
        var("a", 1, 3),
        var("b", 1, 3),
        var("c", 1, 3),
        var("d", 1, 3),
        var("n1", 0, 3),
        var("n3", 0, 3),
    ];
    check(
        &vars,
        &["fzn_global_cardinality([a, b, c, d], [1, 3], [n1, n3])"],
        &|x| gcc(&x[..4], &[1, 3], &x[4..], false),
    );
    check(
        &vars,
        &["fzn_global_cardinality_closed([a, b, c, d], [1, 3], [n1, n3])"],
        &|x| gcc(&x[..4], &[1, 3], &x[4..], true),
    );
}

#[test]
fn global_cardinality_with_a_repeated_cover_value_keeps_the_sum_bound() {
    // The catalogue's constraint refuses a repeated value; the front end then posts one count per
    // entry and the sum bound of MiniZinc's definition: value 1 counted twice may occur at most
    // twice among four variables.
    let vars = [
        var("a", 1, 2),
        var("b", 1, 2),
        var("c", 1, 2),
        var("d", 1, 2),
        var("n", 0, 4),
        var("m", 0, 4),
    ];
    check(
        &vars,
        &["fzn_global_cardinality([a, b, c, d], [1, 1], [n, m])"],
        &|x| gcc(&x[..4], &[1, 1], &x[4..], false),
    );
    // Closed, with 2 covered too: 1 counted twice leaves no room for any 1 at all.
    let vars = [
        var("a", 1, 3),
        var("b", 1, 3),
        var("n", 0, 2),
        var("m", 0, 2),
        var("k", 0, 2),
    ];
    check(
        &vars,
        &["fzn_global_cardinality_closed([a, b], [1, 2, 1], [n, m, k])"],
        &|x| gcc(&x[..2], &[1, 2, 1], &x[2..], true),
    );
}

/// MiniZinc's lexicographic order on arrays of any lengths.
fn lex(x: &[i64], y: &[i64], strict: bool) -> bool {
    match x.iter().zip(y).find(|(a, b)| a != b) {
        Some((a, b)) => a < b,
        None if strict => x.len() < y.len(),
        None => x.len() <= y.len(),
    }
}

#[test]
fn lex_orders_arrays_of_different_lengths() {
    let vars = [
        var("x1", 0, 2),
        var("x2", 0, 2),
        var("x3", 0, 2),
        var("y1", 0, 2),
        var("y2", 0, 2),
    ];
    for (name, strict) in [("fzn_lex_less_int", true), ("fzn_lex_lesseq_int", false)] {
        let forwards = format!("{name}([x1, x2, x3], [y1, y2])");
        check(&vars, &[&forwards], &|v| lex(&v[..3], &v[3..], strict));
        let backwards = format!("{name}([y1, y2], [x1, 1, x3])");
        check(&vars, &[&backwards], &|v| {
            lex(&v[3..], &[v[0], 1, v[2]], strict)
        });
    }
    let bools = [boolean("p"), boolean("q"), boolean("r"), boolean("s")];
    for (name, strict) in [("fzn_lex_less_bool", true), ("fzn_lex_lesseq_bool", false)] {
        let constraint = format!("{name}([p, q], [r, s])");
        check(&bools, &[&constraint], &|v| lex(&v[..2], &v[2..], strict));
    }
}

#[test]
fn cumulative_counts_the_schedules_within_capacity() {
    // The last task takes nothing (zero duration), however much it requires.
    let vars = [
        var("s1", 0, 4),
        var("s2", 0, 4),
        var("s3", 0, 4),
        var("s4", 0, 4),
    ];
    let (d, r, b) = ([2, 1, 3, 0], [1, 2, 1, 5], 2);
    check(
        &vars,
        &["csp_cumulative([s1, s2, s3, s4], [2, 1, 3, 0], [1, 2, 1, 5], 2)"],
        &|s| {
            // MiniZinc's time decomposition: at every time the running tasks' requirements fit.
            (0..10).all(|t| {
                (0..4)
                    .filter(|&i| d[i] > 0 && r[i] > 0 && s[i] <= t && t < s[i] + d[i])
                    .map(|i| r[i])
                    .sum::<i64>()
                    <= b
            })
        },
    );
}

#[test]
fn disjunctive_counts_the_schedules_without_overlap() {
    let vars = [
        var("s1", 0, 4),
        var("s2", 0, 4),
        var("s3", 0, 4),
        var("s4", 0, 4),
    ];
    let d = [2, 0, 1, 2];
    check(
        &vars,
        &["csp_disjunctive([s1, s2, s3, s4], [2, 0, 1, 2])"],
        &|s| {
            (0..4).all(|i| {
                (i + 1..4)
                    .all(|j| d[i] == 0 || d[j] == 0 || s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i])
            })
        },
    );
}

/// Three Booleans `a`, `b`, `r`.
const ABR: [Var; 3] = [boolean("a"), boolean("b"), boolean("r")];

#[test]
fn boolean_builtins_count_their_truth_tables() {
    type Op = fn(bool, bool) -> bool;
    let ops: [(&str, Op); 6] = [
        ("and", |a, b| a && b),
        ("or", |a, b| a || b),
        ("xor", |a, b| a != b),
        ("eq", |a, b| a == b),
        ("le", |a, b| a <= b),
        ("lt", |a, b| !a && b),
    ];
    for (name, op) in ops {
        let reif = if matches!(name, "and" | "or" | "xor") {
            format!("bool_{name}(a, b, r)")
        } else {
            format!("bool_{name}_reif(a, b, r)")
        };
        check(&ABR, &[&reif], &|v| (v[2] == 1) == op(v[0] == 1, v[1] == 1));
        let imp = format!("bool_{name}_imp(a, b, r)");
        check(&ABR, &[&imp], &|v| v[2] == 0 || op(v[0] == 1, v[1] == 1));
        // A constant operand or result folds away before posting.
        for (constant, value) in [("true", true), ("false", false)] {
            let folded = format!("bool_{name}{}(a, {constant}, r)", suffix(name));
            check_loose(&ABR, &[&folded], &|v| (v[2] == 1) == op(v[0] == 1, value));
            let result = format!("bool_{name}{}(a, b, {constant})", suffix(name));
            check_loose(&ABR, &[&result], &|v| op(v[0] == 1, v[1] == 1) == value);
        }
    }
}

/// The reified form's suffix: `bool_and`, `bool_or` and `bool_xor` have none.
fn suffix(name: &str) -> &'static str {
    if matches!(name, "and" | "or" | "xor") {
        ""
    } else {
        "_reif"
    }
}

/// [`check`] without the non-triviality requirement, for constraints a constant may settle.
fn check_loose(vars: &[Var], constraints: &[&str], accept: &dyn Fn(&[i64]) -> bool) {
    let expected = brute_force(vars, accept);
    assert_eq!(
        count_solutions(vars, constraints),
        expected,
        "{constraints:?}"
    );
}

#[test]
fn clauses_and_arrays_of_booleans_count_their_models() {
    let vars = [
        boolean("a"),
        boolean("b"),
        boolean("c"),
        boolean("d"),
        boolean("r"),
    ];
    let clause = |v: &[i64]| v[0] == 1 || v[1] == 1 || v[2] == 0 || v[3] == 0;
    check(&vars, &["bool_clause([a, b], [c, d])"], &|v| clause(v));
    check(&vars, &["bool_clause_reif([a, b], [c, d], r)"], &|v| {
        (v[4] == 1) == clause(v)
    });
    check(&vars, &["bool_clause_imp([a, b], [c, d], r)"], &|v| {
        v[4] == 0 || clause(v)
    });
    // Constants in a clause: a false positive and a true negative literal are left out.
    check(&vars, &["bool_clause([a, false], [c, true])"], &|v| {
        v[0] == 1 || v[2] == 0
    });
    check_loose(&vars, &["bool_clause([a, true], [c])"], &|_| true);
    check(&vars, &["array_bool_and([a, b, c, d], r)"], &|v| {
        (v[4] == 1) == v[..4].iter().all(|&x| x == 1)
    });
    check(&vars, &["array_bool_or([a, b, c, d], r)"], &|v| {
        (v[4] == 1) == v[..4].contains(&1)
    });
    check(&vars, &["array_bool_xor([a, b, c, d, r, true])"], &|v| {
        v.iter().sum::<i64>() % 2 == 0
    });
    // A repeated variable cancels out of a parity.
    check(&vars, &["array_bool_xor([a, b, a])"], &|v| v[1] == 1);
    check(&vars, &["bool_not(a, b)", "bool_xor(c, d)"], &|v| {
        v[0] != v[1] && v[2] != v[3]
    });
}

#[test]
fn comparisons_and_their_reifications_count_their_models() {
    let vars = [var("x", -2, 3), var("y", -1, 2), boolean("r")];
    type Rel = fn(i64, i64) -> bool;
    let relations: [(&str, Rel); 4] = [
        ("eq", |a, b| a == b),
        ("ne", |a, b| a != b),
        ("le", |a, b| a <= b),
        ("lt", |a, b| a < b),
    ];
    for (name, rel) in relations {
        let plain = format!("int_{name}(x, y)");
        check(&vars, &[&plain], &|v| rel(v[0], v[1]));
        let reif = format!("int_{name}_reif(x, y, r)");
        check(&vars, &[&reif], &|v| (v[2] == 1) == rel(v[0], v[1]));
        let imp = format!("int_{name}_imp(1, y, r)");
        check(&vars, &[&imp], &|v| v[2] == 0 || rel(1, v[1]));
        // Two-term linear sums become comparisons: x − y ⋈ 1 and −x ⋈ 1.
        let lin = format!("int_lin_{name}_reif([1, -1], [x, y], 1, r)");
        if name != "lt" {
            check(&vars, &[&lin], &|v| (v[2] == 1) == rel(v[0] - v[1], 1));
            let negated = format!("int_lin_{name}([-1], [x], 1)");
            check(&vars, &[&negated], &|v| rel(-v[0], 1));
        }
    }
    check(&vars, &["bool2int(r, y)"], &|v| v[1] == v[2]);
}

#[test]
fn arithmetic_element_and_sets_count_their_models() {
    let vars = [var("x", -3, 3), var("y", -2, 2), var("z", -4, 9)];
    type Function = fn(i64, i64) -> Option<i64>;
    let functions: [(&str, Function); 6] = [
        ("int_times", |x, y| Some(x * y)),
        ("int_div", |x, y| (y != 0).then(|| x / y)),
        ("int_mod", |x, y| (y != 0).then(|| x % y)),
        ("int_min", |x, y| Some(x.min(y))),
        ("int_max", |x, y| Some(x.max(y))),
        // A negative exponent is 1 div x^|y| (0 unless x is 1 or −1), undefined for x = 0.
        ("int_pow", |x, y| match y {
            0.. => Some(x.pow(y as u32)),
            _ if x == 0 => None,
            _ => Some(1 / x.pow(y.unsigned_abs() as u32)),
        }),
    ];
    for (name, function) in functions {
        let constraint = format!("{name}(x, y, z)");
        check(&vars, &[&constraint], &|v| {
            function(v[0], v[1]) == Some(v[2])
        });
    }
    check(&vars, &["int_abs(x, z)"], &|v| v[0].abs() == v[2]);
    check(&vars, &["array_int_maximum(z, [x, y, 1])"], &|v| {
        v[2] == v[0].max(v[1]).max(1)
    });
    check(&vars, &["array_int_minimum(z, [x, y, 1])"], &|v| {
        v[2] == v[0].min(v[1]).min(1)
    });
    let array = [4, -1, 7, 0, 4];
    check(
        &vars,
        &["array_int_element(x, [4, -1, 7, 0, 4], z)"],
        &|v| (1..=5).contains(&v[0]) && array[v[0] as usize - 1] == v[2],
    );
    check(&vars, &["array_var_int_element(x, [y, 2, z], y)"], &|v| {
        let items = [v[1], 2, v[2]];
        (1..=3).contains(&v[0]) && items[v[0] as usize - 1] == v[1]
    });
    let in_set = |x: i64| x == -3 || (0..=1).contains(&x) || x == 3;
    check(&vars, &["set_in(x, {-3, 0, 1, 3})"], &|v| in_set(v[0]));
    let with_r = [var("x", -3, 3), boolean("r")];
    check(&with_r, &["set_in_reif(x, {-3, 0, 1, 3}, r)"], &|v| {
        (v[1] == 1) == in_set(v[0])
    });
    check(&with_r, &["set_in_imp(x, {-3, 0, 1, 3}, r)"], &|v| {
        v[1] == 0 || in_set(v[0])
    });
}

/// The Boolean variables `{prefix}1..={prefix}n`.
fn bools_named(prefix: &'static str, n: usize) -> Vec<Var> {
    vars_named(prefix, n, 0, 1)
        .into_iter()
        .map(|v| boolean(v.name))
        .collect()
}

/// The variables `{prefix}1..={prefix}n`, each over `lo..=hi`.
fn vars_named(prefix: &'static str, n: usize, lo: i64, hi: i64) -> Vec<Var> {
    const NAMES: [&str; 24] = [
        "s1", "s2", "s3", "s4", "d1", "d2", "d3", "d4", "r1", "r2", "r3", "r4", "o1", "o2", "o3",
        "o4", "x1", "x2", "x3", "x4", "y1", "y2", "y3", "y4",
    ];
    NAMES
        .iter()
        .filter(|name| name.starts_with(prefix))
        .take(n)
        .map(|&name| var(name, lo, hi))
        .collect()
}

/// MiniZinc's `cumulative` by its time decomposition: at every time, the running tasks (present,
/// of positive duration and requirement) need at most `b`; with a task, `b ≥ 0`.
fn cumulative_ok(s: &[i64], d: &[i64], r: &[i64], present: &[bool], b: i64) -> bool {
    (s.is_empty() || b >= 0)
        && (-5..20).all(|t| {
            (0..s.len())
                .filter(|&i| present[i] && d[i] > 0 && r[i] > 0 && s[i] <= t && t < s[i] + d[i])
                .map(|i| r[i])
                .sum::<i64>()
                <= b
        })
}

/// MiniZinc's `disjunctive` (zero durations exempt) or `disjunctive_strict`, over the present tasks.
fn disjunctive_ok(s: &[i64], d: &[i64], present: &[bool], strict: bool) -> bool {
    (0..s.len()).all(|i| {
        (i + 1..s.len()).all(|j| {
            !present[i]
                || !present[j]
                || (!strict && (d[i] == 0 || d[j] == 0))
                || s[i] + d[i] <= s[j]
                || s[j] + d[j] <= s[i]
        })
    })
}

#[test]
fn cumulative_with_variable_data_counts_the_schedules_within_capacity() {
    let mut vars = vars_named("s", 3, 0, 3);
    vars.extend(vars_named("d", 3, 0, 2));
    vars.extend(vars_named("r", 3, 1, 2));
    vars.push(var("b", 1, 2));
    check(
        &vars,
        &["csp_cumulative_var([s1, s2, s3], [d1, d2, d3], [r1, r2, r3], b)"],
        &|v| cumulative_ok(&v[..3], &v[3..6], &v[6..9], &[true; 3], v[9]),
    );
    // Optional tasks: a task runs when its presence is 1.
    let mut vars = vars_named("s", 3, 0, 3);
    vars.extend(bools_named("o", 3));
    check(
        &vars,
        &["csp_cumulative_opt([s1, s2, s3], [o1, o2, o3], [2, 1, 2], [1, 2, 1], 2)"],
        &|v| {
            let present: Vec<bool> = v[3..6].iter().map(|&o| o == 1).collect();
            cumulative_ok(&v[..3], &[2, 1, 2], &[1, 2, 1], &present, 2)
        },
    );
}

#[test]
fn disjunctive_with_variable_durations_counts_the_schedules_without_overlap() {
    let mut vars = vars_named("s", 3, 0, 3);
    vars.extend(vars_named("d", 3, 0, 2));
    for (name, strict) in [
        ("csp_disjunctive_var", false),
        ("csp_disjunctive_strict_var", true),
    ] {
        let constraint = format!("{name}([s1, s2, s3], [d1, d2, d3])");
        check(&vars, &[&constraint], &|v| {
            disjunctive_ok(&v[..3], &v[3..6], &[true; 3], strict)
        });
    }
    let mut vars = vars_named("s", 3, 0, 3);
    vars.extend(bools_named("o", 3));
    vars.extend(vars_named("d", 3, 0, 2));
    for (name, strict) in [
        ("csp_disjunctive_opt", false),
        ("csp_disjunctive_strict_opt", true),
    ] {
        let constraint = format!("{name}([s1, s2, s3], [o1, o2, o3], [d1, d2, d3])");
        check(&vars, &[&constraint], &|v| {
            let present: Vec<bool> = v[3..6].iter().map(|&o| o == 1).collect();
            disjunctive_ok(&v[..3], &v[6..9], &present, strict)
        });
    }
}

/// The automaton of the regular tests: 3 states over 2 symbols, accepting in 1 or 3.
const DFA: [i64; 6] = [2, 1, 3, 0, 3, 1];

/// The state after reading `word` from state 1, and the transitions taken (as indices into
/// [`DFA`]); `None` if a symbol is outside 1..=2 or the failing state 0 is reached.
fn run_dfa(word: &[i64]) -> Option<(i64, Vec<usize>)> {
    let mut state = 1;
    let mut taken = Vec::new();
    for &v in word {
        if !(1..=2).contains(&v) {
            return None;
        }
        let k = ((state - 1) * 2 + v - 1) as usize;
        taken.push(k);
        state = DFA[k];
        if state == 0 {
            return None;
        }
    }
    Some((state, taken))
}

#[test]
fn regular_and_cost_regular_count_the_accepted_words() {
    let vars = vars_named("x", 4, 0, 2);
    check(
        &vars,
        &["fzn_regular([x1, x2, x3, x4], 3, 2, [2, 1, 3, 0, 3, 1], 1, {1, 3})"],
        &|v| run_dfa(v).is_some_and(|(state, _)| state == 1 || state == 3),
    );
    let costs = [1, 2, 0, 3, 2, 1];
    let mut vars = vars_named("x", 4, 1, 2);
    vars.push(var("c", 0, 8));
    check(
        &vars,
        &[
            "fzn_cost_regular([x1, x2, x3, x4], 3, 2, [2, 1, 3, 0, 3, 1], 1, {1, 3}, [1, 2, 0, 3, 2, 1], c)",
        ],
        &|v| {
            run_dfa(&v[..4]).is_some_and(|(state, taken)| {
                (state == 1 || state == 3) && taken.iter().map(|&k| costs[k]).sum::<i64>() == v[4]
            })
        },
    );
}

#[test]
fn diffn_counts_the_placements_without_overlap() {
    let mut vars = vars_named("x", 3, 0, 2);
    vars.extend(vars_named("y", 3, 0, 2));
    let (w, h) = ([2, 1, 1], [1, 2, 1]);
    let apart = |v: &[i64], i: usize, j: usize, w: &[i64], h: &[i64]| {
        let (x, y) = (&v[..3], &v[3..6]);
        x[i] + w[i] <= x[j] || y[i] + h[i] <= y[j] || x[j] + w[j] <= x[i] || y[j] + h[j] <= y[i]
    };
    check(
        &vars,
        &["fzn_diffn([x1, x2, x3], [y1, y2, y3], [2, 1, 1], [1, 2, 1])"],
        &|v| (0..3).all(|i| (i + 1..3).all(|j| apart(v, i, j, &w, &h))),
    );
    // Non-strict, with variable widths that may be zero.
    let mut vars = vars_named("x", 3, 0, 2);
    vars.extend(vars_named("y", 3, 0, 1));
    vars.extend(vars_named("d", 3, 0, 1));
    check(
        &vars,
        &["fzn_diffn_nonstrict([x1, x2, x3], [y1, y2, y3], [d1, d2, d3], [1, 2, 1])"],
        &|v| {
            let (w, h) = (&v[6..9], [1, 2, 1]);
            (0..3).all(|i| {
                (i + 1..3).all(|j| [w[i], w[j], h[i], h[j]].contains(&0) || apart(v, i, j, w, &h))
            })
        },
    );
}

#[test]
fn bin_packing_counts_the_assignments_within_capacity() {
    let weights = [2, 1, 2, 1];
    let loads = |bins: &[i64], first: i64, m: usize| {
        let mut load = vec![0; m];
        for (i, &b) in bins.iter().enumerate() {
            load[(b - first) as usize] += weights[i];
        }
        load
    };
    let vars = vars_named("x", 4, 1, 3);
    check(
        &vars,
        &["fzn_bin_packing(3, [x1, x2, x3, x4], [2, 1, 2, 1])"],
        &|v| loads(v, 1, 3).iter().all(|&l| l <= 3),
    );
    let vars = vars_named("x", 4, 0, 3);
    check(
        &vars,
        &["csp_bin_packing_capa([3, 2, 2], 0, [x1, x2, x3, x4], [2, 1, 2, 1])"],
        &|v| {
            v.iter().all(|&b| b <= 2) && loads(v, 0, 3).iter().zip([3, 2, 2]).all(|(&l, c)| l <= c)
        },
    );
    let mut vars = vars_named("x", 4, 1, 3);
    vars.extend(vars_named("y", 3, 0, 4));
    check(
        &vars,
        &["csp_bin_packing_load([y1, y2, y3], 1, [x1, x2, x3, x4], [2, 1, 2, 1])"],
        &|v| loads(&v[..4], 1, 3) == v[4..7],
    );
}

#[test]
fn array_globals_count_their_models() {
    let vars = vars_named("x", 4, 1, 3);
    let mut with_n = vars_named("x", 4, 1, 3);
    with_n.push(var("n", 0, 4));
    check(&with_n, &["fzn_nvalue(n, [x1, x2, x3, x4])"], &|v| {
        let mut seen = v[..4].to_vec();
        seen.sort_unstable();
        seen.dedup();
        seen.len() as i64 == v[4]
    });
    check(
        &vars,
        &["fzn_value_precede_int(1, 2, [x1, x2, x3, x4])"],
        &|v| (0..4).all(|i| v[i] != 2 || v[..i].contains(&1)),
    );
    let mut with_y = vars_named("x", 3, 0, 3);
    with_y.push(var("y", 0, 4));
    check(&with_y, &["fzn_member_int([x1, x2, x3], y)"], &|v| {
        v[..3].contains(&v[3])
    });
    let bools = bools_named("x", 4);
    check(&bools, &["fzn_member_bool([x1, x2, x3], x4)"], &|v| {
        v[..3].contains(&v[3])
    });
    let small = vars_named("x", 4, 0, 3);
    let differ_except = |v: &[i64], except: &[i64]| {
        (0..4).all(|i| {
            (i + 1..4).all(|j| v[i] != v[j] || (except.contains(&v[i]) && except.contains(&v[j])))
        })
    };
    check(
        &small,
        &["fzn_alldifferent_except_0([x1, x2, x3, x4])"],
        &|v| differ_except(v, &[0]),
    );
    check(
        &small,
        &["fzn_alldifferent_except([x1, x2, x3, x4], {1, 3})"],
        &|v| differ_except(v, &[1, 3]),
    );
    for (name, decreasing) in [
        ("int", false),
        ("int", true),
        ("bool", false),
        ("bool", true),
    ] {
        let vars = if name == "bool" { &bools } else { &small };
        let direction = if decreasing {
            "decreasing"
        } else {
            "increasing"
        };
        let constraint = format!("fzn_{direction}_{name}([x1, x2, x3, x4])");
        check(vars, &[&constraint], &|v| {
            v.windows(2).all(|w| {
                if decreasing {
                    w[0] >= w[1]
                } else {
                    w[0] <= w[1]
                }
            })
        });
    }
}

#[test]
fn arg_max_and_arg_min_count_the_first_extreme_positions() {
    // Positions numbered from 3, as a MiniZinc array over 3..6; z may name positions outside.
    let mut vars = vars_named("x", 4, -1, 1);
    vars.push(var("z", 2, 7));
    for (name, minimum) in [("csp_maximum_arg", false), ("csp_minimum_arg", true)] {
        let constraint = format!("{name}([x1, x2, x3, x4], 3, z)");
        check(&vars, &[&constraint], &|v| {
            let x = &v[..4];
            let best = if minimum {
                x.iter().min()
            } else {
                x.iter().max()
            }
            .unwrap();
            v[4] == 3 + x.iter().position(|value| value == best).unwrap() as i64
        });
    }
    let mut bools = bools_named("x", 3);
    bools.push(var("z", 0, 4));
    check(
        &bools,
        &["csp_maximum_arg_bool([x1, x2, x3], 1, z)"],
        &|v| {
            let best = v[..3].iter().max().unwrap();
            v[3] == 1 + v[..3].iter().position(|value| value == best).unwrap() as i64
        },
    );
}

#[test]
fn subcircuit_counts_the_circuits_over_some_nodes() {
    for first in [1, 0] {
        let vars: Vec<Var> = vars_named("x", 4, first - 1, first + 3);
        let constraint = format!("csp_subcircuit([x1, x2, x3, x4], {first})");
        check(&vars, &[&constraint], &|v| {
            let succ: Option<Vec<usize>> = v
                .iter()
                .map(|&s| usize::try_from(s - first).ok().filter(|&k| k < 4))
                .collect();
            let Some(succ) = succ else { return false };
            let mut sorted = succ.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != 4 {
                return false;
            }
            // The nodes that are not their own successor form one cycle.
            let inside: Vec<usize> = (0..4).filter(|&i| succ[i] != i).collect();
            let Some(&start) = inside.first() else {
                return true;
            };
            let mut length = 1;
            let mut at = succ[start];
            while at != start {
                length += 1;
                at = succ[at];
            }
            length == inside.len()
        });
    }
}
