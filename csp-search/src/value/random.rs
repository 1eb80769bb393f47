use csp_core::VarId;
use rand::seq::SliceRandom;

use super::value_order::ValueOrder;
use crate::{Rng, SelectCtx, rng_for};

/// The random stream value ordering draws from (see [`rng_for`]).
const VALUE_STREAM: u64 = 2;

/// A fresh seeded random permutation of the choices at every node.
#[derive(Debug, Clone)]
pub struct RandomValues {
    rng: Rng,
}

impl RandomValues {
    /// Random value order driven by `seed`.
    pub fn new(seed: u64) -> Self {
        RandomValues {
            rng: rng_for(seed, VALUE_STREAM),
        }
    }
}

impl ValueOrder for RandomValues {
    #[inline]
    fn order(&mut self, _var: VarId, _ctx: &SelectCtx<'_>, values: &mut [i32]) {
        values.shuffle(&mut self.rng);
    }
}
