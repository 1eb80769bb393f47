//! The constructive solvers of `nqueens_model::construct` against the independent verifier, for every
//! board in their scope up to 5,000; Abramson & Yung's branches derived here from number theory; the
//! engine's toroidal counts against OEIS A051906; and the streaming writer and verifier.

use std::io::Cursor;

use csp_search::{Limits, Outcome, SearchConfig, solve};
use nqueens_model::construct::{
    ConstructError, Corner, ExplicitColumns, ExplicitRule, Method, OddTrickResult, Recipe,
    TABLE_SIZES, abramson_yung, decomposition, decomposition_of, explicit, general, knight_walk,
    odd_trick, regular, table, torus, torus_model, verify_torus, yaglom,
};
use nqueens_model::stream::{Format, Position, StreamError, verify_stream, write_placement};
use nqueens_model::{AttackKind, VerifyError, verify};
use proptest::prelude::*;

/// The largest board every method is checked on.
const LARGEST: usize = 5000;

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Pólya's condition, and the knight-walk's.
fn coprime_to_6(n: usize) -> bool {
    gcd(n, 6) == 1
}

/// Whether `n` coprime to 6 has a factorisation `a·b` with both factors at least 5, found by trying
/// every divisor.
fn has_nontrivial_factorisation(n: usize) -> bool {
    coprime_to_6(n) && (5..n).any(|a| n.is_multiple_of(a) && n / a >= 5)
}

/// Each method's scope, stated here from the issue, independently of `Method::covers`.
fn in_scope(method: Method, n: usize) -> bool {
    match method {
        Method::Explicit | Method::AbramsonYung | Method::Yaglom => n == 1 || n >= 4,
        Method::KnightWalk => coprime_to_6(n),
        Method::Decomposition => has_nontrivial_factorisation(n),
        Method::OddTrick => n >= 4 && n.is_multiple_of(2),
    }
}

/// Asserts that `placement` is an `n`-queens solution by `verify`, the checker independent of every
/// construction.
fn assert_solution(placement: &[u32], n: usize, what: &str) {
    assert_eq!(placement.len(), n, "{what}, n = {n}: length");
    if let Err(error) = verify(placement) {
        panic!("{what}, n = {n}: {error}");
    }
}

#[test]
fn method_scopes_are_as_stated() {
    for n in 0..=LARGEST {
        for method in Method::ALL {
            assert_eq!(method.covers(n), in_scope(method, n), "{method}, n = {n}");
        }
    }
}

#[test]
fn explicit_solves_every_board_to_5000() {
    for n in (1..=LARGEST).filter(|&n| in_scope(Method::Explicit, n)) {
        let built = explicit(n).unwrap();
        assert_solution(&built.placement, n, "explicit");
        assert_eq!(built.recipe.n(), n);
        let even = n - n % 2;
        let rule = if even % 6 == 2 {
            ExplicitRule::TwoModSix
        } else {
            ExplicitRule::NotTwoModSix
        };
        let even_recipe = Recipe::Explicit { n: even, rule };
        let expected = if n % 2 == 0 {
            even_recipe
        } else {
            Recipe::CornerAdded(Corner::BottomRight, Box::new(even_recipe))
        };
        assert_eq!(built.recipe, expected, "n = {n}");
    }
}

#[test]
fn explicit_streams_the_same_columns_it_builds() {
    for n in [1, 4, 5, 8, 9, 14, 1000, 4321, 100_001] {
        let streamed: Vec<u32> = ExplicitColumns::new(n).unwrap().collect();
        assert_eq!(streamed, explicit(n).unwrap().placement, "n = {n}");
    }
}

#[test]
fn knight_walk_and_regular_solutions_are_toroidal_to_5000() {
    for n in (1..=LARGEST).filter(|&n| coprime_to_6(n)) {
        let walk = knight_walk(n).unwrap();
        assert_eq!(walk.recipe, Recipe::KnightWalk { n });
        assert_solution(&walk.placement, n, "knight-walk");
        assert_eq!(
            verify_torus(&walk.placement),
            Ok(()),
            "knight-walk, n = {n}"
        );
        assert_eq!(torus(n).unwrap().placement, walk.placement);
        // Chandra's regular solutions: every slope below 12 that the condition allows.
        for a in 2..12.min(n) {
            let allowed = gcd(a, n) == 1 && gcd(a - 1, n) == 1 && gcd(a + 1, n) == 1;
            match regular(n, a, n / 3) {
                Ok(board) => {
                    assert!(allowed, "regular {a}i mod {n} was built");
                    assert_solution(&board.placement, n, "regular");
                    assert_eq!(verify_torus(&board.placement), Ok(()), "a = {a}, n = {n}");
                }
                Err(error) => {
                    assert!(!allowed, "regular {a}i mod {n} was refused: {error}");
                    assert!(matches!(error, ConstructError::InvalidParameters(_)));
                }
            }
        }
    }
}

#[test]
fn decompositions_are_toroidal_to_5000() {
    for n in (1..=LARGEST).filter(|&n| has_nontrivial_factorisation(n)) {
        let board = decomposition(n).unwrap();
        let Recipe::Decomposition { a, b } = board.recipe else {
            panic!("n = {n}: {:?}", board.recipe);
        };
        assert_eq!(a * b, n);
        assert_solution(&board.placement, n, "decomposition");
        assert_eq!(verify_torus(&board.placement), Ok(()), "n = {n}");
    }
    // Every factor pair, not only the one `decomposition` picks.
    let factors: Vec<usize> = (1..=LARGEST).filter(|&n| coprime_to_6(n)).collect();
    for &a in &factors {
        for &b in factors.iter().take_while(|&&b| a * b <= LARGEST) {
            let board = decomposition_of(a, b).unwrap();
            assert_solution(&board.placement, a * b, "decomposition_of");
            assert_eq!(verify_torus(&board.placement), Ok(()), "{a}·{b}");
        }
    }
}

#[test]
fn general_scheme_solves_its_scope_to_5000() {
    let exceptions = [2, 3, 8, 9, 14, 15, 26, 27, 38, 39];
    for n in 1..=LARGEST {
        let in_general = (n % 6 == 2 || n % 6 == 3) && !exceptions.contains(&n);
        match general(n) {
            Ok(board) => {
                assert!(in_general, "n = {n} was built");
                assert_solution(&board.placement, n, "general");
            }
            Err(error) => {
                assert!(!in_general, "n = {n} was refused: {error}");
                assert!(matches!(error, ConstructError::OutOfScope { .. }));
            }
        }
    }
}

#[test]
fn abramson_yung_and_yaglom_solve_every_board_to_5000() {
    for n in 1..=LARGEST {
        for (method, built) in [
            (Method::AbramsonYung, abramson_yung(n)),
            (Method::Yaglom, yaglom(n)),
        ] {
            if in_scope(method, n) {
                let board = built.unwrap();
                assert_solution(&board.placement, n, method.name());
                assert_eq!(board.recipe.n(), n, "{method}");
            } else {
                assert!(built.is_err(), "{method}, n = {n}");
            }
        }
    }
}

#[test]
fn table_entries_are_found_by_the_engine() {
    for n in TABLE_SIZES {
        let entry = table(n).unwrap();
        assert_eq!(entry.recipe, Recipe::Table { n });
        assert_solution(&entry.placement, n, "table");
        // The entry is the engine's first MIN solution, not a typed-in board.
        let model = nqueens_model::model(n, nqueens_model::Encoding::Counters).unwrap();
        let mut search = csp_search::Search::new(&model, &SearchConfig::min());
        let first: Vec<u32> = search
            .next_solution(&mut ())
            .unwrap()
            .iter()
            .map(|&v| v as u32)
            .collect();
        assert_eq!(entry.placement, first, "n = {n}");
    }
}

/// Lemma 5's `b` for an odd `n` divisible by 3, found by trying every candidate: the largest `b`
/// coprime to 6 with `4b < n`, if `n < 5b`.
fn lemma5_b(n: usize) -> Option<usize> {
    let b = (1..n).filter(|&b| coprime_to_6(b) && 4 * b < n).max()?;
    (n < 5 * b).then_some(b)
}

#[test]
fn abramson_yung_branches_follow_number_theory_from_4_to_2000() {
    let mut from_table = Vec::new();
    for n in 4..=2000 {
        let recipe = abramson_yung(n).unwrap().recipe;
        let general_on = |m: usize| {
            lemma5_b(m).map(|b| Recipe::General {
                a: 5,
                b,
                c: m - 4 * b,
            })
        };
        let expected = if coprime_to_6(n) {
            Recipe::KnightWalk { n }
        } else if coprime_to_6(n + 1) {
            // Even n with n + 1 coprime to 6: n ≡ 0 or 4 (mod 6).
            Recipe::CornerRemoval(Box::new(Recipe::KnightWalk { n: n + 1 }))
        } else if n % 2 == 1 {
            // Odd multiples of 3.
            general_on(n).unwrap_or(Recipe::Table { n })
        } else {
            // n ≡ 2 (mod 6): n + 1 is an odd multiple of 3.
            general_on(n + 1)
                .map(|larger| Recipe::CornerRemoval(Box::new(larger)))
                .unwrap_or(Recipe::Table { n })
        };
        assert_eq!(recipe, expected, "n = {n}");
        if let Recipe::General { a, b, c } = recipe {
            assert_eq!((a - 1) * b + c, n);
            assert!(c <= b && coprime_to_6(c), "Lemma 4: n = {n}");
        }
        if recipe == (Recipe::Table { n }) {
            from_table.push(n);
        }
    }
    // Theorem 2: the scheme covers every n but 2, 3 and these eight.
    assert_eq!(from_table, TABLE_SIZES);
    for n in [2, 3] {
        assert!(abramson_yung(n).is_err());
    }
}

/// OEIS A051906: toroidal N-queens solutions, n = 1..=13.
const A051906: [u64; 13] = [1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524];

#[test]
fn engine_counts_toroidal_solutions_as_a051906() {
    for (n, &want) in (1..).zip(&A051906) {
        let model = torus_model(n).unwrap();
        let result = solve(&model, &SearchConfig::min().all_solutions(), ());
        assert_eq!(result.outcome, Outcome::Exhausted, "n = {n}");
        assert_eq!(result.stats.solutions, want, "toroidal solutions, n = {n}");
    }
}

#[test]
fn torus_refuses_n_not_coprime_to_6() {
    for n in (1..=200).filter(|&n| !coprime_to_6(n)) {
        assert_eq!(
            torus(n).unwrap_err().to_string(),
            format!("no toroidal solution for n = {n}: n must be coprime to 6 (Pólya)")
        );
    }
}

#[test]
fn out_of_scope_sizes_are_refused_naming_the_methods_that_cover_them() {
    for n in 1..=300 {
        for method in Method::ALL.into_iter().filter(|&m| !in_scope(m, n)) {
            let error = match method {
                Method::Explicit => explicit(n).unwrap_err(),
                Method::KnightWalk => knight_walk(n).unwrap_err(),
                Method::Decomposition => decomposition(n).unwrap_err(),
                Method::AbramsonYung => abramson_yung(n).unwrap_err(),
                Method::Yaglom => yaglom(n).unwrap_err(),
                Method::OddTrick => odd_trick(n, Limits::default()).unwrap_err(),
            };
            let message = error.to_string();
            assert!(
                message.starts_with(&format!("{method} does not cover n = {n}")),
                "{message}"
            );
            let others: Vec<&str> = Method::ALL
                .into_iter()
                .filter(|&m| in_scope(m, n))
                // The odd trick is LEX search: it is recommended only below the paper's range.
                .filter(|&m| m != Method::OddTrick || n < 30)
                .map(Method::name)
                .collect();
            if others.is_empty() {
                let expected = format!("no placement of {n} queens exists");
                assert!(message.ends_with(&expected), "{message}");
            } else {
                assert!(
                    message.ends_with(&format!("n = {n} is covered by {}", others.join(", "))),
                    "{message}"
                );
            }
        }
    }
    assert_eq!(
        decomposition(9).unwrap_err().to_string(),
        "decomposition does not cover n = 9 (it needs n = a·b coprime to 6 with a, b ≥ 5); \
         n = 9 is covered by explicit, abramson-yung, yaglom"
    );
    assert_eq!(
        odd_trick(7, Limits::default()).unwrap_err().to_string(),
        "odd-trick does not cover n = 7 (it needs an even n ≥ 4); \
         n = 7 is covered by explicit, knight-walk, abramson-yung, yaglom"
    );
    for construct in [explicit, knight_walk, decomposition, abramson_yung, yaglom] {
        assert_eq!(construct(0).unwrap_err(), ConstructError::ZeroSize);
    }
}

#[test]
fn odd_trick_matches_stone_and_stone_to_20() {
    // Stone & Stone's Table 2, LEX, N = 7..=20 (also pinned by the suite's stone_table2_lex_backtracks).
    let lex_backtracks: Vec<(usize, u64)> = (7..)
        .zip([
            2, 105, 32, 92, 41, 249, 98, 1885, 1344, 10036, 5357, 41281, 2526, 199_615,
        ])
        .collect();
    for n in (4..=20).step_by(2) {
        let trick = odd_trick(n, Limits::default()).unwrap();
        let OddTrickResult::Corner(placement) = &trick.result else {
            panic!("n = {n}: {:?}", trick.result);
        };
        assert_solution(placement, n, "odd-trick");
        let larger = trick.via_odd.solution.as_ref().unwrap();
        assert_eq!(larger[0], 0, "the corner queen");
        assert_solution(larger, n + 1, "LEX on n + 1");
        assert_solution(trick.direct.solution.as_ref().unwrap(), n, "LEX on n");
        for (size, run) in [(n + 1, &trick.via_odd), (n, &trick.direct)] {
            assert_eq!(run.n, size);
            assert_eq!(run.outcome, Outcome::Solved);
            if let Some(&(_, want)) = lex_backtracks.iter().find(|&&(m, _)| m == size) {
                assert_eq!(run.backtracks, want, "LEX backtracks, n = {size}");
            }
        }
        assert_eq!(
            trick.construction().unwrap().recipe,
            Recipe::CornerRemoval(Box::new(Recipe::LexSearch { n: n + 1 }))
        );
    }
}

/// Writes `placement` in `format` and reads it back through the streaming verifier.
fn round_trip(placement: &[u32], format: Format) -> Result<usize, StreamError> {
    let mut file = Vec::new();
    let rows = write_placement(&mut file, placement.iter().copied(), format).unwrap();
    assert_eq!(rows, placement.len() as u64);
    verify_stream(Cursor::new(file), format)
}

#[test]
fn streamed_placements_verify_in_both_formats() {
    for n in [1, 4, 5, 8, 99, 1000, 65_536, 300_007] {
        let placement = explicit(n).unwrap().placement;
        for format in Format::ALL {
            assert_eq!(
                round_trip(&placement, format).unwrap(),
                n,
                "{format}, n = {n}"
            );
        }
    }
    // Streaming the columns straight from the construction gives the same bytes.
    for format in Format::ALL {
        let (mut streamed, mut stored) = (Vec::new(), Vec::new());
        write_placement(&mut streamed, ExplicitColumns::new(4321).unwrap(), format).unwrap();
        write_placement(&mut stored, explicit(4321).unwrap().placement, format).unwrap();
        assert_eq!(streamed, stored);
    }
    // An empty placement is no board (issue 16: a failed write must not pass for a solution).
    assert!(matches!(
        round_trip(&[], Format::U32Le),
        Err(StreamError::Empty)
    ));
}

#[test]
fn streamed_verifier_names_the_first_attacking_pair() {
    let placement = [0, 3, 5, 3, 1, 1];
    for format in Format::ALL {
        let error = round_trip(&placement, format).unwrap_err();
        let StreamError::Invalid { error, position } = error else {
            panic!("{error}");
        };
        assert_eq!(
            error,
            VerifyError::Attack {
                first_row: 0,
                second_row: 3,
                first_column: 0,
                second_column: 3,
                kind: AttackKind::SameDownDiagonal,
            }
        );
        assert_eq!(Err(error), verify(&placement));
        let expected_position = match format {
            Format::Text => Position::Line(4),
            Format::U32Le => Position::ByteOffset(12),
        };
        assert_eq!(position, expected_position);
    }
    assert_eq!(
        round_trip(&[0, 3, 5, 3, 1, 1], Format::Text)
            .unwrap_err()
            .to_string(),
        "queens in rows 0 and 3 (columns 0 and 3) share a down-diagonal (line 4)"
    );
}

#[test]
fn malformed_files_are_refused_with_their_line_or_offset() {
    let text = |bytes: &[u8]| {
        verify_stream(Cursor::new(bytes.to_vec()), Format::Text)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        text(b"1\n3\nx\n2\n"),
        "line 3: unexpected `x`, expected a column number (decimal digits only)"
    );
    assert_eq!(
        text(b"1\n3\n-1\n2\n"),
        "line 3: unexpected `-`, expected a column number (decimal digits only)"
    );
    assert_eq!(
        text(b"1\n\n0\n2\n"),
        "line 2: the line is empty, expected a column number"
    );
    assert_eq!(
        text(b"1\n3 \n0\n2\n"),
        "line 2: unexpected ` `, expected a column number (decimal digits only)"
    );
    assert_eq!(
        text(b"1\n99999999999\n"),
        "line 2: the number is larger than any column (4294967295 at most)"
    );
    assert_eq!(
        text(b"1\n3\n0\n4\n"),
        "the queen in row 3 is in column 4, outside the board's columns 0..4 (line 4)"
    );
    assert_eq!(
        text(b"1\r3\n"),
        "line 1: a carriage return in the middle of the line"
    );
    let u32le = |bytes: &[u8]| {
        verify_stream(Cursor::new(bytes.to_vec()), Format::U32Le)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        u32le(&[1, 0, 0, 0, 3, 0]),
        "a u32le placement is 4 bytes per row, but this one has 6 bytes: \
         the row at byte offset 4 is incomplete"
    );
    let mut far = Vec::new();
    write_placement(&mut far, [1, 3, 0, 7], Format::U32Le).unwrap();
    assert_eq!(
        u32le(&far),
        "the queen in row 3 is in column 7, outside the board's columns 0..4 (byte offset 12)"
    );
}

proptest! {
    /// The streaming verifier says exactly what `verify` says, on arbitrary placements (mostly
    /// invalid, some off the board), in both formats.
    #[test]
    fn streaming_verifier_agrees_with_verify(
        placement in prop::collection::vec(0_u32..12, 0..12),
    ) {
        let expected = verify(&placement);
        for format in Format::ALL {
            match round_trip(&placement, format) {
                Ok(n) => {
                    prop_assert_eq!(n, placement.len());
                    prop_assert!(expected.is_ok());
                }
                Err(StreamError::Invalid { error, .. }) => {
                    prop_assert_eq!(Err(error), expected.clone());
                }
                Err(StreamError::Empty) => prop_assert!(placement.is_empty()),
                Err(other) => prop_assert!(false, "{}", other),
            }
        }
    }
}
