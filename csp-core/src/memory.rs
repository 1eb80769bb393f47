//! How much memory a model and one search over it may take, estimated before the model is built, so
//! that a caller can refuse a model too large for its budget without allocating it.
//!
//! The estimate follows this crate's own layout (domains, their two copies, the trail), which is why
//! it lives here: a change to that layout changes the numbers in one place.

/// Bytes per heap block that the allocator keeps beside the block, and the granularity it rounds to.
const ALLOCATION_OVERHEAD_BYTES: u128 = 16;

/// Bytes of a [`crate::Domain`] value: its bounds, its size and its representation (a bit set's base,
/// width and word pointer; `size_of::<Domain>()`, checked by a test).
const DOMAIN_HEADER_BYTES: u128 = 56;

/// Bits per word of a domain's bit set.
const DOMAIN_BLOCK_BITS: u128 = 64;

/// How many copies of every domain exist during a search: the model's initial domains and the
/// store's current ones.
const DOMAIN_COPIES: u128 = 2;

/// Bytes per variable for everything other than its domains and its constraints' own state: its name
/// in the model and, while the model is built, in the builder's set of names (a string header and a
/// small heap block each, with the set's slack), its value and assigned flag in the store, and the
/// header and first heap block of its list of constraints.
const VARIABLE_BYTES: u128 = 208;

/// Bytes per small binary constraint (such as [`crate::constraints::NotEqual`]): the boxed pointer in
/// the model's list (16, doubled for the list's worst-case growth slack), the box itself (16, plus
/// allocator overhead), its state-cell offset in the model (8), its unassigned-variable counter in the
/// store (4), and its entries in its two variables' constraint lists (2 × 4, doubled for growth
/// slack): 92, rounded up to 96.
const BINARY_CONSTRAINT_BYTES: u128 = 96;

/// Trail bytes per value removed: a removal entry is 8 bytes, doubled for the trail vector's
/// worst-case growth slack.
const TRAIL_BYTES_PER_REMOVAL: u128 = 16;

/// What a model will hold, as far as its memory goes: what a caller knows before building it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ModelSize {
    /// The number of variables.
    pub variables: u64,
    /// The width (`hi − lo + 1`) of every variable's initial domain.
    pub domain_width: u64,
    /// How many small binary constraints (such as [`crate::constraints::NotEqual`]) are posted.
    pub binary_constraints: u64,
    /// Bytes per variable that the model's other constraints keep for it: scope entries (4 bytes
    /// each) and state cells (8 bytes each).
    pub constraint_bytes_per_variable: u64,
}

impl ModelSize {
    /// An estimate, in bytes, of the memory the model and one search over it take together, at worst.
    ///
    /// It counts every variable's domain (a bit per value, in whole 256-bit blocks, with its header
    /// and the allocator's overhead) twice, for the model's initial domains and the store's current
    /// ones; 208 bytes of bookkeeping per variable (its name, value, assigned flag and constraint
    /// list) and [`constraint_bytes_per_variable`](Self::constraint_bytes_per_variable); 96 bytes per
    /// binary constraint (its box, offset, counter and list entries, with the lists' growth slack);
    /// and the trail at its worst, every value of every variable removed once along a path (forward
    /// checking removes a value at most once until the path backs up past it), at 16 bytes a removal.
    /// The trail term dominates large models, and is a worst case: search bounds its trail (32 MiB by
    /// default, `csp_search::Search::set_memory_budget`), so a real search peaks far lower (a
    /// 10,000-queens descent at 84 MB, where this estimate says 1.6 GB); a check-past search never
    /// records removals at all. Refusing on the worst case keeps the refusal safe.
    ///
    /// The result saturates at `u64::MAX`, so any size may be asked about.
    pub const fn estimated_search_bytes(&self) -> u64 {
        // u128 holds every product below for sizes up to 2^40, far past any budget; beyond that the
        // saturating operations pin the result at the top.
        let variables = self.variables as u128;
        let width = self.domain_width as u128;
        let domain_bytes = DOMAIN_HEADER_BYTES
            + width.div_ceil(DOMAIN_BLOCK_BITS) * (DOMAIN_BLOCK_BITS / 8)
            + ALLOCATION_OVERHEAD_BYTES;
        let per_variable = DOMAIN_COPIES * domain_bytes
            + VARIABLE_BYTES
            + self.constraint_bytes_per_variable as u128;
        let constraint_bytes =
            (self.binary_constraints as u128).saturating_mul(BINARY_CONSTRAINT_BYTES);
        let trail_bytes = variables
            .saturating_mul(width)
            .saturating_mul(TRAIL_BYTES_PER_REMOVAL);
        let total = variables
            .saturating_mul(per_variable)
            .saturating_add(constraint_bytes)
            .saturating_add(trail_bytes);
        if total > u64::MAX as u128 {
            u64::MAX
        } else {
            total as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ModelSize;

    #[test]
    fn the_estimate_adds_domains_bookkeeping_constraints_and_the_trail() {
        let size = ModelSize {
            variables: 10,
            domain_width: 300,
            binary_constraints: 7,
            constraint_bytes_per_variable: 40,
        };
        // Domains of 300 values take five 64-bit words: 56 + 40 + 16 bytes, twice.
        let per_variable = 2 * (56 + 40 + 16) + 208 + 40;
        assert_eq!(
            size.estimated_search_bytes(),
            10 * per_variable + 7 * 96 + 10 * 300 * 16
        );
    }

    #[test]
    fn the_domain_header_is_the_domains_size() {
        assert_eq!(
            super::DOMAIN_HEADER_BYTES,
            std::mem::size_of::<crate::Domain>() as u128
        );
    }

    #[test]
    fn the_estimate_saturates() {
        let huge = ModelSize {
            variables: u64::MAX,
            domain_width: u64::MAX,
            ..ModelSize::default()
        };
        assert_eq!(huge.estimated_search_bytes(), u64::MAX);
    }
}
