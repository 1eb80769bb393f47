//! A parallel portfolio: several searches of one model at once, each its own configuration (search
//! strategy, seed, large-neighbourhood search or not), sharing branch and bound's bound, so that a
//! solution one worker finds prunes every other worker's tree at once. The first worker to finish
//! its tree ends them all, and its proof stands for all of them: a tree exhausted under the shared
//! bound holds nothing better than the best solution any worker found.
//!
//! Workers marked [`Worker::split`] search one tree together instead: the tree is split into
//! subproblems ([`crate::split::split_tree`]), and each such worker takes the next subproblem
//! whenever it finishes one; the last subproblem exhausted is the proof. A splitting worker with
//! large-neighbourhood search alternates its neighbourhoods with the subproblems, so that the
//! incumbent improves while the tree is divided.
//!
//! In the deterministic mode the workers meet every [`PortfolioConfig::epoch`] nodes and exchange
//! bounds only there; solutions are reported at those meetings, in worker order, and the run stops
//! at the meeting after the first proof. What is printed then does not depend on thread timing
//! (a time limit aside).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use csp_core::{Model, Objective};

use crate::bound::SharedBound;
use crate::split::{SubproblemPool, split_tree};
use crate::{
    LnsConfig, LnsSearch, Outcome, Search, SearchConfig, SearchEvent, SearchObserver, Statistics,
};

/// One worker of a portfolio: its search, and whether large-neighbourhood search runs beside it
/// (optimisation only).
#[derive(Debug, Clone, PartialEq)]
pub struct Worker {
    /// The search's configuration, its seed included.
    pub config: SearchConfig,
    /// Large-neighbourhood search, if any.
    pub lns: Option<LnsConfig>,
    /// Whether the worker searches the subproblems of one split tree with the other splitting
    /// workers, rather than a tree of its own. With `lns`, its neighbourhoods alternate with the
    /// subproblems as they would with a tree of its own ([`LnsSearch::search_subproblems`]).
    /// Ignored in the deterministic mode, where which worker takes which subproblem would depend
    /// on timing.
    pub split: bool,
}

/// Subproblems made per splitting worker: enough that a worker finishing early finds more to do.
const SUBPROBLEMS_PER_WORKER: usize = 32;

/// How a portfolio runs.
#[derive(Debug, Clone, PartialEq)]
pub struct PortfolioConfig {
    /// The workers, one thread each.
    pub workers: Vec<Worker>,
    /// Whether the workers meet every [`PortfolioConfig::epoch`] nodes, so that the result does not
    /// depend on thread timing.
    pub deterministic: bool,
    /// The nodes a worker makes between two meetings in the deterministic mode.
    pub epoch: u64,
    /// The time the whole run may take.
    pub time: Option<Duration>,
    /// Whether every solution of a satisfaction problem is wanted, not the first: each is reported
    /// as its worker finds it, and the run is over when every subproblem of the split tree is
    /// searched through. The workers must all split ([`Worker::split`]), since the subproblems
    /// partition the tree and whole trees searched side by side would repeat each other's
    /// solutions; the deterministic mode, which does not split, cannot enumerate.
    pub enumerate: bool,
}

/// How a portfolio run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct PortfolioResult {
    /// `Optimal` or `Exhausted` when a worker finished its tree (with the meaning
    /// [`Outcome`] gives them, for the best solution of all workers), else how the workers stopped.
    pub outcome: Outcome,
    /// The workers' statistics, summed.
    pub stats: Statistics,
    /// Propagator runs, summed.
    pub propagations: u64,
    /// The worker whose tree ended the run, if one did.
    pub prover: Option<usize>,
    /// The worker that found the last solution reported (under satisfaction, the answer), if any.
    pub finder: Option<usize>,
}

/// What a worker tells the caller's thread.
enum Message {
    Solution {
        worker: usize,
        epoch: u64,
        values: Vec<i32>,
        objective: Option<i64>,
    },
    /// A meeting of the deterministic mode is over: every solution of that epoch has been sent.
    Epoch(u64),
    Done {
        worker: usize,
        outcome: Outcome,
        stats: Statistics,
        propagations: u64,
    },
}

/// Where the deterministic mode's meetings stand.
#[derive(Debug)]
struct Meeting {
    epoch: u64,
    /// Workers at this meeting so far, and how many of them leave the portfolio with it.
    arrived: usize,
    leaving: usize,
    /// Workers still in the portfolio: each comes to every meeting.
    members: usize,
    /// The best objective offered so far, and whether a worker finished its tree, as the
    /// workers arriving at the open meeting tell it.
    best: Option<i64>,
    proved: bool,
    /// The same as of the last meeting closed: what every worker searches under, and whether the
    /// run ends. A worker waiting for a meeting to close reads these, not the open ones, which
    /// workers already at the next meeting may have changed.
    agreed: Option<i64>,
    over: bool,
}

/// Everything the workers share.
struct Shared<'a> {
    stop: AtomicBool,
    bound: Option<SharedBound>,
    meeting: Mutex<Meeting>,
    met: Condvar,
    config: &'a PortfolioConfig,
    maximise: bool,
    started: Instant,
    /// The split tree's subproblems (none when no worker splits).
    pool: SubproblemPool,
}

impl Shared<'_> {
    fn better(&self, a: i64, b: i64) -> bool {
        if self.maximise { a > b } else { a < b }
    }

    fn best_of(&self, a: Option<i64>, b: Option<i64>) -> Option<i64> {
        match (a, b) {
            (Some(x), Some(y)) => Some(if self.better(x, y) { x } else { y }),
            (x, y) => x.or(y),
        }
    }

    /// A worker arrives at the end of its epoch, or (`leaving`) with its search over: it offers
    /// its best, and (unless leaving) waits for the others; it learns the agreed bound and
    /// whether the run is over. The last to arrive closes the meeting.
    fn meet(
        &self,
        best: Option<i64>,
        proof: bool,
        leaving: bool,
        sender: &mpsc::Sender<Message>,
    ) -> (Option<i64>, bool) {
        let mut meeting = self.meeting.lock().unwrap_or_else(|e| e.into_inner());
        meeting.best = self.best_of(meeting.best, best);
        meeting.proved |= proof;
        meeting.arrived += 1;
        meeting.leaving += usize::from(leaving);
        if meeting.arrived == meeting.members {
            meeting.agreed = meeting.best;
            meeting.over = meeting.proved;
            let _ = sender.send(Message::Epoch(meeting.epoch));
            meeting.epoch += 1;
            meeting.members -= meeting.leaving;
            meeting.arrived = 0;
            meeting.leaving = 0;
            if meeting.over {
                self.stop.store(true, Ordering::Relaxed);
            }
            self.met.notify_all();
        } else if !leaving {
            let this = meeting.epoch;
            while meeting.epoch == this {
                meeting = self.met.wait(meeting).unwrap_or_else(|e| e.into_inner());
            }
        }
        (meeting.agreed, meeting.over)
    }
}

/// A deterministic portfolio's solution waiting for its epoch's meeting: epoch, worker, arrival,
/// values, objective.
type Pending = (u64, usize, u64, Vec<i32>, Option<i64>);

/// The caller's side: which solutions are reported.
struct Reporter<F> {
    on_solution: F,
    best: Option<i64>,
    reported: bool,
    /// The worker that found the last solution reported.
    finder: Option<usize>,
    /// Whether the caller asked to stop: nothing more is reported.
    stopped: bool,
}

impl<F: FnMut(&[i32], Option<i64>) -> ControlFlow<()>> Reporter<F> {
    /// Reports a solution if it is better than every one before (under satisfaction, if it is the
    /// first); returns whether the caller wants the run to go on.
    fn offer(
        &mut self,
        shared: &Shared<'_>,
        worker: usize,
        values: &[i32],
        objective: Option<i64>,
    ) -> bool {
        if self.stopped {
            return false;
        }
        let improving = match (objective, self.best) {
            (Some(value), Some(old)) => shared.better(value, old),
            (Some(_), None) => true,
            // An enumeration reports every solution: the subproblems hold each once.
            (None, _) => !self.reported || shared.config.enumerate,
        };
        if !improving {
            return true;
        }
        self.best = objective;
        self.reported = true;
        self.finder = Some(worker);
        let go_on = (self.on_solution)(values, objective).is_continue()
            && (objective.is_some() || shared.config.enumerate);
        if !go_on {
            // The caller has had enough, or a satisfaction problem is answered.
            self.stopped = true;
            shared.stop.store(true, Ordering::Relaxed);
        }
        go_on
    }
}

/// Runs the portfolio on `model`, calling `on_solution` on the caller's thread with each solution
/// better than every one before it (under satisfaction, the first), until a worker proves, every
/// worker stops, or `on_solution` breaks.
pub fn run_portfolio(
    model: &Model,
    config: &PortfolioConfig,
    on_solution: impl FnMut(&[i32], Option<i64>) -> ControlFlow<()>,
) -> PortfolioResult {
    let objective = model.objective();
    let mut splitting = config.workers.iter().filter(|w| w.split);
    let subproblems = match splitting.next() {
        Some(first) if !config.deterministic => split_tree(
            model,
            &first.config,
            SUBPROBLEMS_PER_WORKER * (1 + splitting.count()),
        ),
        _ => Vec::new(),
    };
    let shared = Shared {
        stop: AtomicBool::new(false),
        bound: SharedBound::new(objective),
        meeting: Mutex::new(Meeting {
            epoch: 0,
            arrived: 0,
            leaving: 0,
            members: config.workers.len(),
            best: None,
            proved: false,
            agreed: None,
            over: false,
        }),
        met: Condvar::new(),
        config,
        maximise: matches!(objective, Objective::Maximize(_)),
        started: Instant::now(),
        pool: SubproblemPool::new(subproblems),
    };
    let (sender, receiver) = mpsc::channel();
    let mut result = PortfolioResult {
        outcome: Outcome::Stopped,
        stats: Statistics::default(),
        propagations: 0,
        prover: None,
        finder: None,
    };
    let mut reporter = Reporter {
        on_solution,
        best: None,
        reported: false,
        finder: None,
        stopped: false,
    };
    let mut outcomes = Vec::new();
    std::thread::scope(|scope| {
        for (index, worker) in config.workers.iter().enumerate() {
            let sender = sender.clone();
            let shared = &shared;
            scope.spawn(move || run_worker(model, index, worker, shared, &sender));
        }
        drop(sender);
        // The deterministic mode's solutions wait for their epoch's meeting, then go out in
        // worker order.
        let mut pending: Vec<Pending> = Vec::new();
        let mut sequence = 0;
        for message in receiver {
            match message {
                Message::Solution {
                    worker,
                    epoch,
                    values,
                    objective,
                } => {
                    if config.deterministic {
                        pending.push((epoch, worker, sequence, values, objective));
                        sequence += 1;
                    } else {
                        reporter.offer(&shared, worker, &values, objective);
                    }
                }
                Message::Epoch(epoch) => {
                    pending.sort_by_key(|&(e, w, s, _, _)| (e, w, s));
                    let due = pending.partition_point(|p| p.0 <= epoch);
                    for (_, worker, _, values, objective) in pending.drain(..due) {
                        reporter.offer(&shared, worker, &values, objective);
                    }
                }
                Message::Done {
                    worker,
                    outcome,
                    stats,
                    propagations,
                } => {
                    add(&mut result.stats, &stats);
                    result.propagations += propagations;
                    outcomes.push((worker, outcome));
                }
            }
        }
        pending.sort_by_key(|&(e, w, s, _, _)| (e, w, s));
        for (_, worker, _, values, objective) in pending.drain(..) {
            reporter.offer(&shared, worker, &values, objective);
        }
    });
    // A proof by any worker stands for all; the first in worker order is named.
    outcomes.sort_by_key(|&(worker, _)| worker);
    let proof = outcomes
        .iter()
        .find(|(_, o)| matches!(o, Outcome::Optimal | Outcome::Exhausted));
    result.prover = proof.map(|&(worker, _)| worker);
    result.finder = reporter.finder;
    result.outcome = if config.enumerate && proof.is_some() && !reporter.stopped {
        // Every subproblem was searched through: every solution was reported.
        Outcome::Exhausted
    } else if objective == Objective::Satisfy && reporter.reported {
        Outcome::Solved
    } else if proof.is_some() {
        if reporter.best.is_some() {
            Outcome::Optimal
        } else {
            Outcome::Exhausted
        }
    } else {
        outcomes
            .iter()
            .map(|&(_, o)| o)
            .find(|o| matches!(o, Outcome::LimitReached(_)))
            .unwrap_or(Outcome::Stopped)
    };
    result
}

/// Adds a worker's statistics to the sum.
fn add(sum: &mut Statistics, stats: &Statistics) {
    sum.absorb(stats);
    sum.restarts += stats.restarts;
}

/// A worker's observer: stops the search when the portfolio stops, and in the deterministic mode
/// holds it at the end of every epoch until the others get there.
struct WorkerObserver<'a, 'b> {
    shared: &'a Shared<'b>,
    sender: &'a mpsc::Sender<Message>,
    /// The worker's own view of the bound: in the deterministic mode it changes only at meetings.
    local: Option<SharedBound>,
    nodes: u64,
    epoch: u64,
    events: u64,
    /// The best this worker found since the last meeting.
    found: Option<i64>,
}

impl SearchObserver for WorkerObserver<'_, '_> {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        let deterministic = self.shared.config.deterministic;
        match event {
            SearchEvent::Assign { .. } | SearchEvent::Decide { .. } => {
                self.nodes += 1;
                if deterministic && self.nodes >= (self.epoch + 1) * self.shared.config.epoch {
                    let (agreed, proved) =
                        self.shared
                            .meet(self.found.take(), false, false, self.sender);
                    self.epoch += 1;
                    if let (Some(local), Some(agreed)) = (&self.local, agreed) {
                        local.offer(agreed);
                    }
                    // Whether to stop is read only here, so that every worker makes the same
                    // nodes whatever the timing (the caller's stop may be seen a meeting later,
                    // which changes the statistics, never what is reported).
                    if proved || self.shared.stop.load(Ordering::Relaxed) {
                        return ControlFlow::Break(());
                    }
                }
            }
            SearchEvent::Solution {
                objective: Some(value),
                ..
            } => {
                self.found = self.shared.best_of(self.found, Some(i64::from(*value)));
            }
            _ => {}
        }
        self.events += 1;
        if !deterministic
            && self.events.is_multiple_of(256)
            && self.shared.stop.load(Ordering::Relaxed)
        {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// One worker's run.
fn run_worker(
    model: &Model,
    index: usize,
    worker: &Worker,
    shared: &Shared<'_>,
    sender: &mpsc::Sender<Message>,
) {
    let mut config = worker.config.clone();
    config.limits.time = shared
        .config
        .time
        .map(|t| t.saturating_sub(shared.started.elapsed()));
    // In the deterministic mode each worker has a bound of its own, set from the others' only at
    // meetings; otherwise all share one.
    let bound = if shared.config.deterministic {
        SharedBound::new(model.objective())
    } else {
        shared.bound.clone()
    };
    let mut observer = WorkerObserver {
        shared,
        sender,
        local: bound.clone(),
        nodes: 0,
        epoch: 0,
        events: 0,
        found: None,
    };
    let objective_var = model.objective().var();
    let send = |values: &[i32], epoch: u64| {
        let objective = objective_var.map(|v| i64::from(values[v.index()]));
        let _ = sender.send(Message::Solution {
            worker: index,
            epoch,
            values: values.to_vec(),
            objective,
        });
    };
    let split = worker.split && !shared.pool.is_empty();
    let (outcome, stats, propagations) = match (&worker.lns, &bound) {
        (Some(lns), Some(bound)) => {
            let mut search = LnsSearch::new(model, &config, lns.clone());
            search.share_bound(bound.clone());
            if split {
                search.search_subproblems(&shared.pool);
            }
            while let Some(values) = search.next_solution(&mut observer) {
                send(values, observer.epoch);
            }
            let result = search.result();
            (result.outcome, result.stats, result.propagations)
        }
        _ if split => search_subproblems(model, &config, shared, &bound, &mut observer, &send),
        _ => {
            let mut search = Search::new(model, &config);
            if let Some(bound) = &bound {
                search.share_bound(bound.clone());
            }
            while let Some(values) = search.next_solution(&mut observer) {
                send(values, observer.epoch);
                if bound.is_none() && !shared.config.enumerate {
                    // Satisfaction: one solution is the answer.
                    break;
                }
            }
            let result = search.result();
            let outcome = search.outcome().unwrap_or(Outcome::Solved);
            (outcome, result.stats, result.propagations)
        }
    };
    // An exhausted tree is a proof; so is a satisfaction problem's solution (it is the answer),
    // unless every solution is wanted.
    let proof = matches!(outcome, Outcome::Optimal | Outcome::Exhausted)
        || (outcome == Outcome::Solved && shared.bound.is_none() && !shared.config.enumerate);
    if shared.config.deterministic {
        // Leave the portfolio with this epoch's meeting, so that the others stop there too if this
        // was a proof.
        let found = observer.found.take();
        shared.meet(found, proof, true, sender);
    } else if proof {
        shared.stop.store(true, Ordering::Relaxed);
    }
    let _ = sender.send(Message::Done {
        worker: index,
        outcome,
        stats,
        propagations,
    });
}

/// A splitting worker's run: the next subproblem of the split tree, searched to its end, until none
/// is left or the portfolio stops. The worker that finishes the last subproblem reports the tree
/// exhausted, which is the proof; the others report `Stopped`. A satisfaction problem's solution
/// is the answer, as for any worker.
fn search_subproblems(
    model: &Model,
    config: &SearchConfig,
    shared: &Shared<'_>,
    bound: &Option<SharedBound>,
    observer: &mut WorkerObserver<'_, '_>,
    send: &impl Fn(&[i32], u64),
) -> (Outcome, Statistics, u64) {
    let mut stats = Statistics::default();
    let mut propagations = 0;
    let mut outcome = Outcome::Stopped;
    let mut config = config.clone();
    while !shared.stop.load(Ordering::Relaxed) && !config.stopped() {
        config.limits.time = shared
            .config
            .time
            .map(|t| t.saturating_sub(shared.started.elapsed()));
        let Some(mut search) = shared.pool.take_search(model, &config, bound.as_ref()) else {
            break;
        };
        let mut answered = false;
        while let Some(values) = search.next_solution(observer) {
            send(values, observer.epoch);
            if bound.is_none() && !shared.config.enumerate {
                answered = true;
                break;
            }
        }
        let result = search.result();
        add(&mut stats, &result.stats);
        propagations += result.propagations;
        if answered {
            outcome = Outcome::Solved;
            break;
        }
        match search.outcome() {
            Some(Outcome::Exhausted | Outcome::Optimal) => {
                if shared.pool.finish() {
                    outcome = Outcome::Exhausted;
                    break;
                }
            }
            // A limit or the portfolio's stop: this worker's part of the tree is unfinished.
            Some(other) => {
                outcome = other;
                break;
            }
            None => break,
        }
    }
    (outcome, stats, propagations)
}
