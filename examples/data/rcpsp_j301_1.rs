// PSPLIB's j301_1 (Kolisch & Sprecher, *PSPLIB — A project scheduling problem library*, European
// Journal of Operational Research 96, 1997) and its RCPSP model, shared by `examples/rcpsp.rs` and
// `benches/cumulative.rs` through `include!` (a file in a subfolder of `examples/` is not an example
// of its own). `benches/data/rcpsp/` holds the same instance and model in MiniZinc, for Gecode.

/// j301_1: each job's duration, requests of the four resources, and successors (numbered from 1).
const JOBS: [(i32, [i32; 4], &[usize]); 32] = [
    (0, [0, 0, 0, 0], &[2, 3, 4]),
    (8, [4, 0, 0, 0], &[6, 11, 15]),
    (4, [10, 0, 0, 0], &[7, 8, 13]),
    (6, [0, 0, 0, 3], &[5, 9, 10]),
    (3, [3, 0, 0, 0], &[20]),
    (8, [0, 0, 0, 8], &[30]),
    (5, [4, 0, 0, 0], &[27]),
    (9, [0, 1, 0, 0], &[12, 19, 27]),
    (2, [6, 0, 0, 0], &[14]),
    (7, [0, 0, 0, 1], &[16, 25]),
    (9, [0, 5, 0, 0], &[20, 26]),
    (2, [0, 7, 0, 0], &[14]),
    (6, [4, 0, 0, 0], &[17, 18]),
    (3, [0, 8, 0, 0], &[17]),
    (9, [3, 0, 0, 0], &[25]),
    (10, [0, 0, 0, 5], &[21, 22]),
    (6, [0, 0, 0, 8], &[22]),
    (5, [0, 0, 0, 7], &[20, 22]),
    (3, [0, 1, 0, 0], &[24, 29]),
    (7, [0, 10, 0, 0], &[23, 25]),
    (2, [0, 0, 0, 6], &[28]),
    (7, [2, 0, 0, 0], &[23]),
    (2, [3, 0, 0, 0], &[24]),
    (3, [0, 9, 0, 0], &[30]),
    (3, [4, 0, 0, 0], &[30]),
    (7, [0, 0, 4, 0], &[31]),
    (8, [0, 0, 0, 7], &[28]),
    (3, [0, 8, 0, 0], &[31]),
    (7, [0, 7, 0, 0], &[32]),
    (2, [0, 7, 0, 0], &[32]),
    (2, [0, 0, 2, 0], &[32]),
    (0, [0, 0, 0, 0], &[]),
];

/// The four resources' capacities.
const CAPACITY: [i32; 4] = [12, 13, 4, 12];

/// The published optimal makespan of j301_1.
const OPTIMUM: i32 = 43;

/// The model: each job's start, and the makespan it minimises.
fn rcpsp() -> Result<(Model, Vec<VarId>, VarId), ModelError> {
    let horizon: i32 = JOBS.iter().map(|job| job.0).sum();
    let mut builder = ModelBuilder::new();
    let starts: Vec<VarId> = (0..JOBS.len())
        .map(|j| builder.int_var(format!("s{}", j + 1), 0..=horizon))
        .collect::<Result<_, _>>()?;
    let makespan = builder.int_var("makespan", 0..=horizon)?;
    for (j, &(duration, _, successors)) in JOBS.iter().enumerate() {
        // s[j] + d[j] <= s[k] for each successor k, and <= makespan.
        let ends_before = |k: VarId| {
            Linear::new(
                vec![(1, starts[j]), (-1, k)],
                Relation::LessOrEqual,
                -duration,
            )
        };
        for &k in successors {
            builder.post(ends_before(starts[k - 1]))?;
        }
        builder.post(ends_before(makespan))?;
    }
    let durations: Vec<i32> = JOBS.iter().map(|job| job.0).collect();
    for (r, &capacity) in CAPACITY.iter().enumerate() {
        let requests: Vec<i32> = JOBS.iter().map(|job| job.1[r]).collect();
        builder.post(Cumulative::new(
            starts.clone(),
            durations.clone(),
            requests,
            capacity,
        )?)?;
    }
    builder.minimize(makespan)?;
    Ok((builder.build(), starts, makespan))
}

/// Checks a schedule by its definition, independently of the model: precedences hold, and at every
/// time each resource's load is within its capacity.
fn is_schedule(starts: &[i32], makespan: i32) -> bool {
    let ordered = JOBS.iter().enumerate().all(|(j, &(d, _, successors))| {
        starts[j] >= 0 && starts[j] + d <= makespan && successors.iter().all(|&k| starts[j] + d <= starts[k - 1])
    });
    let fits = (0..makespan).all(|t| {
        (0..4).all(|r| {
            let load: i32 = JOBS
                .iter()
                .enumerate()
                .filter(|&(j, job)| starts[j] <= t && t < starts[j] + job.0)
                .map(|(_, job)| job.1[r])
                .sum();
            load <= CAPACITY[r]
        })
    });
    ordered && fits
}
