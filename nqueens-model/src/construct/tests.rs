//! Tests of what the constructions share: names, scopes, messages and size checks.

use super::*;

#[test]
fn every_method_parses_back_from_its_name() {
    for method in Method::ALL {
        assert_eq!(method.to_string().parse::<Method>(), Ok(method));
    }
    let error = "Explicit".parse::<Method>().unwrap_err();
    for method in Method::ALL {
        assert!(error.to_string().contains(method.name()));
    }
}

#[test]
fn smallest_factor_finds_the_grid_of_a_composite_coprime_to_6() {
    assert_eq!(smallest_factor(25), Some(5));
    assert_eq!(smallest_factor(35), Some(5));
    assert_eq!(smallest_factor(49), Some(7));
    assert_eq!(smallest_factor(77), Some(7));
    for prime_or_bad in [1, 5, 7, 11, 13, 15, 20, 23, 30] {
        assert_eq!(smallest_factor(prime_or_bad), None, "{prime_or_bad}");
    }
}

#[test]
fn out_of_scope_message_names_the_covering_methods_but_not_the_refusing_one() {
    let error = ConstructError::out_of_scope(Method::Decomposition, 21);
    assert_eq!(
        error.to_string(),
        "decomposition does not cover n = 21 (it needs n = a·b coprime to 6 with a, b ≥ 5); \
         n = 21 is covered by explicit, abramson-yung, yaglom"
    );
    assert_eq!(
        ConstructError::out_of_scope(Method::Explicit, 3).to_string(),
        "explicit does not cover n = 3 (it needs n = 1 or n ≥ 4); no placement of 3 queens exists"
    );
}

#[test]
fn questions_about_huge_n_are_answered_at_once() {
    // 2^61 − 1 is prime: trial division to its square root would take minutes.
    let huge_prime = (1_usize << 61) - 1;
    assert!(!Method::Decomposition.covers(huge_prime));
    assert!(matches!(
        decomposition(huge_prime),
        Err(ConstructError::TooLarge { .. })
    ));
    let message = ConstructError::out_of_scope(Method::OddTrick, huge_prime).to_string();
    assert!(
        message.contains("explicit, knight-walk, abramson-yung, yaglom"),
        "{message}"
    );
}

#[test]
fn recipe_sizes_saturate_instead_of_panicking() {
    let odd = Recipe::CornerRemoval(Box::new(Recipe::KnightWalk { n: 0 }));
    assert_eq!(odd.n(), 0);
    assert_eq!(Recipe::General { a: 0, b: 5, c: 1 }.n(), 1);
    assert_eq!(
        Recipe::Decomposition {
            a: usize::MAX,
            b: 7
        }
        .n(),
        usize::MAX
    );
}

#[test]
fn too_large_is_refused_before_allocating() {
    let error = check_size(usize::MAX, "explicit").unwrap_err();
    // The placement (4 bytes a row) and its check (5 bits a row) within 4 GiB: 858,993,459 rows.
    assert!(matches!(error, ConstructError::TooLarge { max, .. } if max == 858_993_459));
    assert_eq!(check_size(0, "explicit"), Err(ConstructError::ZeroSize));
    assert_eq!(check_size(MAX_CONSTRUCT_N, "explicit"), Ok(()));
}
