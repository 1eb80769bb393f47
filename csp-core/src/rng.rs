use rand::SeedableRng;

/// The workspace's one random-number generator: ChaCha8, whose output for a given seed is fixed by its
/// specification, so a seeded run is repeatable bit for bit on any machine.
pub type Rng = rand_chacha::ChaCha8Rng;

/// The generator for one consumer of randomness in a run seeded with `seed`. Each consumer (tie
/// breaking, value ordering, …) gets its own ChaCha stream, so adding randomness to one heuristic does
/// not shift the numbers another one draws.
pub fn rng_for(seed: u64, stream: u64) -> Rng {
    let mut rng = Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}
