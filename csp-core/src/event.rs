//! Domain events: what a change did to a variable's domain, and which changes a constraint asks to be
//! woken by.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign};

/// A set of domain events, as a change reports them and as a constraint subscribes to them
/// ([`crate::Propagator::subscribe`]).
///
/// Every change is a [`REMOVAL`](EventSet::REMOVAL); one that raised the smallest value is also a
/// [`LOWER_BOUND`](EventSet::LOWER_BOUND) change, one that lowered the largest an
/// [`UPPER_BOUND`](EventSet::UPPER_BOUND) change, and one that left a single value a
/// [`FIXED`](EventSet::FIXED) one. A variable cannot become fixed without a bound moving, so a
/// subscription to [`BOUNDS`](EventSet::BOUNDS) also sees every fixing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EventSet(u8);

impl EventSet {
    /// No event.
    pub const EMPTY: EventSet = EventSet(0);
    /// The variable is left with one value.
    pub const FIXED: EventSet = EventSet(1);
    /// The smallest value went up.
    pub const LOWER_BOUND: EventSet = EventSet(2);
    /// The largest value went down.
    pub const UPPER_BOUND: EventSet = EventSet(4);
    /// Any value was removed (every change is one).
    pub const REMOVAL: EventSet = EventSet(8);
    /// Either bound moved: what bounds reasoning needs.
    pub const BOUNDS: EventSet = EventSet(2 | 4);
    /// Every event: the default subscription, always safe.
    pub const ANY: EventSet = EventSet(1 | 2 | 4 | 8);

    /// Whether the two sets share an event.
    #[inline]
    pub fn intersects(self, other: EventSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every event of `other` is in this set.
    #[inline]
    pub fn contains(self, other: EventSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the set holds no event.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl BitOr for EventSet {
    type Output = EventSet;

    #[inline]
    fn bitor(self, other: EventSet) -> EventSet {
        EventSet(self.0 | other.0)
    }
}

impl BitOrAssign for EventSet {
    #[inline]
    fn bitor_assign(&mut self, other: EventSet) {
        self.0 |= other.0;
    }
}

impl BitAnd for EventSet {
    type Output = EventSet;

    #[inline]
    fn bitand(self, other: EventSet) -> EventSet {
        EventSet(self.0 & other.0)
    }
}

impl fmt::Debug for EventSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (EventSet::FIXED, "fixed"),
            (EventSet::LOWER_BOUND, "lower"),
            (EventSet::UPPER_BOUND, "upper"),
            (EventSet::REMOVAL, "removal"),
        ];
        let mut set = f.debug_set();
        for (event, name) in names {
            if self.contains(event) {
                set.entry(&format_args!("{name}"));
            }
        }
        set.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::EventSet;

    #[test]
    fn sets_combine_and_intersect() {
        let bounds = EventSet::LOWER_BOUND | EventSet::UPPER_BOUND;
        assert_eq!(bounds, EventSet::BOUNDS);
        assert!(EventSet::ANY.contains(EventSet::BOUNDS));
        assert!(EventSet::BOUNDS.intersects(EventSet::LOWER_BOUND | EventSet::REMOVAL));
        assert!(!EventSet::FIXED.intersects(EventSet::BOUNDS));
        assert!(EventSet::EMPTY.is_empty());
        assert_eq!(format!("{:?}", EventSet::BOUNDS), "{lower, upper}");
    }
}
