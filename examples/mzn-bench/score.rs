//! The MiniZinc Challenge's score: on each instance, each solver against each other one.
//!
//! The Challenge's results pages put it as: 0 for a worse answer in quality (a worse objective, no
//! proof of optimality, or no answer to a satisfaction problem), 1 for a better one, and when the
//! quality is the same, the point is split by the time each used. Here that reads: a proven answer
//! (a solution of a satisfaction problem, unsatisfiability, a proven optimum, a complete count)
//! beats an unproven one, which beats none; two unproven solutions of an optimisation problem are
//! ranked by objective; otherwise the point is split as `t_other / (t_self + t_other)`. A run that
//! did not prove its answer used the whole limit, so two equal unproven answers split it evenly. No
//! answer, or a wrong one, scores nothing, even against another solver that has none.

use crate::instances::Expected;
use crate::run::{Run, Status};

/// Times below a millisecond count as one: the Challenge reports times in milliseconds, and a
/// split between two runs of a few microseconds each says nothing about either solver.
pub const TIME_FLOOR: f64 = 1e-3;

/// What the score compares of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Answer {
    /// 0: nothing (or a wrong answer); 1: an unproven solution; 2: a proven answer.
    pub rank: u8,
    /// The objective of the last solution, for optimisation problems.
    pub objective: Option<i64>,
    /// Seconds, the time limit for an unproven answer.
    pub time: f64,
}

impl Answer {
    /// The answer of a run, judged against its instance's known answer.
    pub fn of(run: &Run, expected: &Expected, limit: f64) -> Answer {
        let status = run.status(expected);
        let rank = if status.proven() {
            2
        } else if status == Status::Found {
            1
        } else {
            0
        };
        Answer {
            rank,
            objective: run.objective(),
            time: if rank == 2 { run.seconds() } else { limit },
        }
    }
}

/// The score of `this` against `other` on one instance (`minimize` as the instance says, `None` for
/// satisfaction problems): 1, 0, or a share of the point by time.
pub fn against(this: &Answer, other: &Answer, minimize: Option<bool>) -> f64 {
    if this.rank == 0 {
        return 0.0;
    }
    if this.rank != other.rank {
        return if this.rank > other.rank { 1.0 } else { 0.0 };
    }
    if this.rank == 1
        && let (Some(mine), Some(theirs), Some(minimize)) =
            (this.objective, other.objective, minimize)
        && mine != theirs
    {
        return if (mine < theirs) == minimize {
            1.0
        } else {
            0.0
        };
    }
    let (mine, theirs) = (this.time.max(TIME_FLOOR), other.time.max(TIME_FLOOR));
    theirs / (mine + theirs)
}

/// The scores of several solvers on one instance: each one's total against all the others.
pub fn totals(answers: &[Answer], minimize: Option<bool>) -> Vec<f64> {
    answers
        .iter()
        .enumerate()
        .map(|(i, this)| {
            answers
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, other)| against(this, other, minimize))
                .sum()
        })
        .collect()
}

/// The median of some values (the mean of the middle two for an even count), `None` if there are
/// none.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(rank: u8, objective: Option<i64>, time: f64) -> Answer {
        Answer {
            rank,
            objective,
            time,
        }
    }

    #[test]
    fn a_proven_answer_beats_an_unproven_one_which_beats_none() {
        let proven = answer(2, Some(930), 12.0);
        let found = answer(1, Some(930), 20.0);
        let nothing = answer(0, None, 20.0);
        assert_eq!(against(&proven, &found, Some(true)), 1.0);
        assert_eq!(against(&found, &proven, Some(true)), 0.0);
        assert_eq!(against(&found, &nothing, Some(true)), 1.0);
        assert_eq!(against(&nothing, &found, Some(true)), 0.0);
        assert_eq!(against(&nothing, &nothing, None), 0.0);
    }

    #[test]
    fn unproven_answers_are_ranked_by_objective_in_the_instance_s_direction() {
        let low = answer(1, Some(949), 20.0);
        let high = answer(1, Some(1139), 20.0);
        assert_eq!(against(&low, &high, Some(true)), 1.0);
        assert_eq!(against(&high, &low, Some(true)), 0.0);
        assert_eq!(against(&high, &low, Some(false)), 1.0);
        assert_eq!(against(&low, &low, Some(true)), 0.5);
    }

    #[test]
    fn equal_proven_answers_split_the_point_by_time() {
        let fast = answer(2, None, 1.0);
        let slow = answer(2, None, 3.0);
        assert_eq!(against(&fast, &slow, None), 0.75);
        assert_eq!(against(&slow, &fast, None), 0.25);
        // Below a millisecond, times are all the same.
        let instant = answer(2, None, 1e-6);
        let quick = answer(2, None, 5e-4);
        assert_eq!(against(&instant, &quick, None), 0.5);
    }

    #[test]
    fn each_solver_s_total_is_its_sum_against_the_others() {
        let answers = [
            answer(2, None, 1.0),
            answer(2, None, 3.0),
            answer(0, None, 20.0),
        ];
        assert_eq!(totals(&answers, None), [1.75, 1.25, 0.0]);
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&mut []), None);
    }
}
