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
