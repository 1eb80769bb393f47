//! A random stream read ahead, so that a search can fetch the memory its coming draws will touch
//! while it works on the current one.
//!
//! QS4's initialisation is bound by memory latency, not by work: each draw reads a random column from
//! the pool of unoccupied ones (the placement's tail, 40 MB at 10⁷ queens), then a bit from each of the
//! two diagonal sets at places that depend on that column. Whether a draw succeeds is a coin toss, so
//! the processor mispredicts it about every other draw and cannot overlap the misses of the next
//! draws with this one's. Yet the next draws are already determined: the random words are fixed by the
//! seed, and a word and the current row give the square it will test to within a few rows. Reading the
//! words ahead lets the search ask for those cache lines many draws before it needs them.
//!
//! The words are consumed in exactly the order the generator produces them, so every draw, and every
//! placement, is the same as without the look-ahead.

use csp_core::Rng;
use rand::Rng as _;

/// A source of uniform 32-bit words, as [`below`](super::below) draws from it.
pub(super) trait Words {
    /// The next word.
    fn next_word(&mut self) -> u32;
}

impl Words for Rng {
    #[inline]
    fn next_word(&mut self) -> u32 {
        self.next_u32()
    }
}

/// Words kept ready ahead of the one consumed next: the look-ahead's depth.
pub(super) const AHEAD: usize = 32;

/// The ring holding the words ready; a power of two at least [`AHEAD`], so that a position is a mask.
const RING: usize = AHEAD.next_power_of_two();

/// A generator's words, [`AHEAD`] of them drawn in advance and visible through [`Lookahead::peek`].
pub(super) struct Lookahead {
    rng: Rng,
    ring: [u32; RING],
    /// The number of words consumed; the next one is at `consumed % RING`.
    consumed: usize,
}

impl Lookahead {
    /// Reads `rng` ahead.
    pub(super) fn new(mut rng: Rng) -> Self {
        let mut ring = [0; RING];
        for word in ring.iter_mut().take(AHEAD) {
            *word = rng.next_u32();
        }
        Lookahead {
            rng,
            ring,
            consumed: 0,
        }
    }

    /// The word that will be consumed after `skip` others (`skip < AHEAD`), without consuming it.
    #[inline]
    pub(super) fn peek(&self, skip: usize) -> u32 {
        debug_assert!(skip < AHEAD);
        self.ring[(self.consumed + skip) % RING]
    }
}

impl Words for Lookahead {
    #[inline]
    fn next_word(&mut self) -> u32 {
        let word = self.ring[self.consumed % RING];
        self.ring[(self.consumed + AHEAD) % RING] = self.rng.next_u32();
        self.consumed += 1;
        word
    }
}

/// The row offset a draw of `bound` rows would give for `word` if the first multiply of
/// [`below`](super::below) is not rejected, as it practically never is for large bounds: where a
/// coming draw will land.
#[inline]
pub(super) fn scale(word: u32, bound: u32) -> usize {
    ((u64::from(word) * u64::from(bound)) >> 32) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_look_ahead_yields_the_generator_s_words_in_order() {
        let mut plain = csp_core::rng_for(3, 104);
        let mut ahead = Lookahead::new(csp_core::rng_for(3, 104));
        for _ in 0..1000 {
            let next = ahead.peek(0);
            let later = ahead.peek(AHEAD - 1);
            let word = ahead.next_word();
            assert_eq!(word, next);
            assert_eq!(word, plain.next_word());
            // `later` comes `AHEAD - 1` words after `word`: `AHEAD - 2` after the plain generator's next.
            let mut probe = plain.clone();
            for _ in 0..AHEAD - 2 {
                probe.next_word();
            }
            assert_eq!(later, probe.next_word());
        }
    }
}
