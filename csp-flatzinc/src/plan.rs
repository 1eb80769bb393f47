//! How a run searches, decided once from its options and its model ([`plan`]): one search or
//! several on threads, each search's configuration (the model's annotations or free search,
//! learning or not, neighbourhoods or not), and the options that have no effect on this run, each
//! with why, so that a caller can say so rather than silently run something else.

use std::fmt;
use std::time::{Duration, Instant};

use csp_core::{Model, Objective};
use csp_search::portfolio::{PortfolioConfig, Worker};
use csp_search::{
    Interleaved, LEARNING_NODE_COST, Learning, LnsConfig, LnsSearch, Search, SearchConfig,
    Solutions, TURN_NODES,
};

use crate::Compiled;
use crate::options::{Learns, RunOptions};

/// Nodes between two meetings of a deterministic portfolio.
const DETERMINISTIC_EPOCH: u64 = 10_000;

/// How a run searches: its searches, and the options given that have no effect on it.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The search, or the searches on threads.
    pub searches: Searches,
    /// The options the run ignores, each with why.
    pub ignored: Vec<Ignored>,
}

/// One search on the calling thread, or several on threads.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Searches {
    /// One search.
    One(OneSearch),
    /// Searches on threads sharing the bound (`-p N`): a portfolio of different searches, or the
    /// subproblems of one split tree (an enumeration always), see [`csp_search::portfolio`].
    Portfolio(PortfolioConfig),
}

/// One search, of one of the three kinds that report solutions one at a time.
#[derive(Debug, Clone)]
pub enum OneSearch {
    /// A search of the whole tree (branch and bound under an objective), learning from failure
    /// or not as its configuration says.
    Tree(SearchConfig),
    /// Branch and bound with large-neighbourhood search beside it ([`LnsSearch`]).
    Lns(SearchConfig, LnsConfig),
    /// Two searches in turn, sharing the bound, `turns` nodes each ([`Interleaved`]): for a
    /// satisfaction problem's first solution, or an optimum.
    Interleaved(Box<OneSearch>, Box<OneSearch>, [u64; 2]),
}

impl OneSearch {
    /// The search, ready to report its first solution.
    pub fn build<'m>(&self, model: &'m Model) -> Box<dyn Solutions + 'm> {
        match self {
            OneSearch::Tree(config) => Box::new(Search::new(model, config)),
            OneSearch::Lns(config, lns) => Box::new(LnsSearch::new(model, config, lns.clone())),
            OneSearch::Interleaved(first, second, turns) => Box::new(Interleaved::of(
                model,
                [first.build(model), second.build(model)],
                *turns,
                first.config().limits,
            )),
        }
    }

    /// The configuration of the search (of the first, for two in turn).
    pub fn config(&self) -> &SearchConfig {
        match self {
            OneSearch::Tree(config) | OneSearch::Lns(config, _) => config,
            OneSearch::Interleaved(first, _, _) => first.config(),
        }
    }

    /// Whether the search, or either of two in turn, learns from failure.
    pub fn learns(&self) -> bool {
        match self {
            OneSearch::Tree(config) | OneSearch::Lns(config, _) => config.conflicts.learns(),
            OneSearch::Interleaved(first, second, _) => first.learns() || second.learns(),
        }
    }
}

/// An option given that has no effect on the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    /// The option, as the command line spells it (`--lns on`).
    pub option: &'static str,
    /// Why it has no effect.
    pub why: &'static str,
}

impl fmt::Display for Ignored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is ignored: {}", self.option, self.why)
    }
}

/// Decides how `compiled` is searched as `options` ask: the one place where the options meet.
///
/// - **Threads.** `-p N` runs N searches sharing the bound. A satisfaction problem's tree is split
///   into subproblems the workers take in turn (always for an enumeration, whose subproblems hold
///   each solution once); under an objective, a portfolio of different searches unless `--split
///   on` (see [`splits`]). The deterministic mode does not split, so it cannot enumerate on
///   threads.
/// - **Learning** (`--learning off|on|mix`): in no search, every search, or a learning search
///   beside one that does not (in turn on one thread; with `-p N`, the second worker); unset,
///   [`learns_by_default`] chooses for one thread, and with `-p N` the mix.
/// - **Neighbourhoods** (`--lns`, on unless turned off) beside branch and bound, under an
///   objective.
/// - **The learning profile** (`--learning-profile`): how strongly a learning search's propagators propagate;
///   unset, [`LEARNING_PROFILE`].
/// - **Interleaving** (`--interleave`, on unless turned off): a satisfaction problem's first
///   solution by its annotated search and free search in turn, when it has annotations, one
///   thread searches without learning, and free search was not asked for.
pub fn plan(compiled: &Compiled, options: &RunOptions) -> Plan {
    let model = compiled.model();
    let optimising = model.objective() != Objective::Satisfy;
    let enumerating =
        !optimising && (options.all_solutions || options.solutions.is_some_and(|n| n > 1));
    let mut ignored = Vec::new();
    let mut ignore = |option, why| ignored.push(Ignored { option, why });

    let threads = options.threads.max(1);
    let parallel = threads > 1 && !(enumerating && options.deterministic);
    if threads > 1 && !parallel {
        ignore(
            "-p",
            "an enumeration runs on threads as the subproblems of a split tree, which the \
             deterministic mode does not make",
        );
    }
    if options.split.is_some() && !parallel {
        ignore("--split", "it says how -p N searches share the work");
    }
    if options.split == Some(false) && parallel && enumerating {
        ignore(
            "--split off",
            "an enumeration on threads is always split, so that no solution is found twice",
        );
    }
    if options.deterministic && threads == 1 {
        ignore("--deterministic", "it orders the meetings of -p N searches");
    }
    if options.lns == Some(true) && !optimising {
        ignore(
            "--lns on",
            "neighbourhoods improve an objective, and the model has none",
        );
    }
    let learns = options
        .learning
        .unwrap_or_else(|| learns_by_default(compiled));
    if options.learning_profile.is_some() && learns == Learns::Off {
        ignore(
            "--learning-profile",
            "it sets how a learning search propagates, and no search learns",
        );
    }
    let interleaving = !optimising
        && !enumerating
        && !parallel
        && learns != Learns::On
        && !options.free_search
        && !compiled.searches().is_empty();
    if options.interleave == Some(true) && !interleaving {
        ignore(
            "--interleave on",
            "it applies to one search without learning for the first solution of a satisfaction \
             problem with search annotations, without -f",
        );
    }

    let time = options
        .deadline
        .map(|deadline| deadline.saturating_duration_since(Instant::now()));
    let lns = optimising && options.lns.unwrap_or(true);
    let searches = if parallel {
        let split = enumerating || (!options.deterministic && options.split.unwrap_or(!optimising));
        let workers = (0..threads)
            .map(|i| worker(compiled, options, time, i, split, lns))
            .collect();
        Searches::Portfolio(PortfolioConfig {
            workers,
            deterministic: options.deterministic,
            epoch: DETERMINISTIC_EPOCH,
            time,
            enumerate: enumerating,
        })
    } else {
        let interleave = interleaving && options.interleave != Some(false);
        Searches::One(one_search(compiled, options, time, learns, interleave, lns))
    };
    Plan { searches, ignored }
}

/// How one search learns when `--learning` is not given: under an objective it learns (with
/// neighbourhoods, as `--lns` says), and a satisfaction problem is searched without learning (its
/// annotations and free search in turn), as measured at 20 s on the public suite and on
/// `data/minizinc-sched` (`mzn-bench -t 20`, 28 November 2026, one run each on a shared machine;
/// README has the table). On the public suite the two prove the same 40 of 49: learning alone
/// loses CostasArray 15 and market_split u4-01, both satisfaction problems, and proves every optimum
/// the other proves, golomb 10 slowly (19 s against 2 s). On the 18 scheduling instances learning
/// proves 12 and the search without it 8: RCPSP 05, MSPSP medium 03, RCPSP/wet j30_43_10 and the
/// table layout only with learning (0.03 s, 0.04 s, 10.9 s, 0.01 s), RCPSP/wet j30_27 and j30_1
/// in 0.38 s and 0.07 s rather than 18 s and 16 s. The two in turn (`--learning mix`) proved 39
/// of the public 49, losing market_split u4-01, and lost template_design catfood_3 when the
/// learning search had the larger share.
pub fn learns_by_default(compiled: &Compiled) -> Learns {
    if compiled.model().objective() == Objective::Satisfy {
        Learns::Off
    } else {
        Learns::On
    }
}

/// One search as `learns` says: without learning, neighbourhoods beside branch and bound under an
/// objective (`lns`), or a first solution by the annotations and free search in turn
/// (`interleave`); with learning, neighbourhoods likewise; or the two in turn, the learning
/// search's turn [`LEARNING_NODE_COST`] times shorter in nodes.
fn one_search(
    compiled: &Compiled,
    options: &RunOptions,
    time: Option<Duration>,
    learns: Learns,
    interleave: bool,
    lns: bool,
) -> OneSearch {
    let plain = || {
        let config = configured(compiled.search_config(options.free_search), options, time);
        if interleave {
            let free = configured(compiled.search_config(true), options, time);
            OneSearch::Interleaved(
                Box::new(OneSearch::Tree(config)),
                Box::new(OneSearch::Tree(free)),
                [TURN_NODES, TURN_NODES / 2],
            )
        } else if lns {
            OneSearch::Lns(config, lns_config(compiled))
        } else {
            OneSearch::Tree(config)
        }
    };
    let learning = || {
        let config = learning_config(compiled, options, time, false);
        if lns {
            OneSearch::Lns(config, lns_config(compiled))
        } else {
            OneSearch::Tree(config)
        }
    };
    let enumerating = compiled.model().objective() == Objective::Satisfy
        && (options.all_solutions || options.solutions.is_some_and(|n| n > 1));
    match learns {
        Learns::Off => plain(),
        Learns::On => learning(),
        Learns::Mix if enumerating => plain(),
        Learns::Mix => OneSearch::Interleaved(
            Box::new(plain()),
            Box::new(learning()),
            [TURN_NODES, TURN_NODES / LEARNING_NODE_COST],
        ),
    }
}

/// Whether `-p N` splits the tree of a problem with (`optimising`) or without an objective when
/// `--split` is not given: for satisfaction problems only. Measured at 20 s on the slow instances
/// of `data/minizinc-bench` with `-p 2`: a split tree proves and answers satisfaction problems in
/// about half the time (market_split u4-01 8.3 s to 4.4 s, search_stress 08_04 5.6 s to 2.9 s,
/// CostasArray 15 6.6 s to 3.6 s), where the portfolio barely beats one search. Under an
/// objective a split tree, each worker's neighbourhoods alternating with its subproblems, proves
/// some optima sooner than the portfolio (golomb 10 1.6 s against 2.8 s, mknap2-20 2.1 s against
/// 4.6 s), but the portfolio's free-search worker proves template_design catfood_3 in about a
/// second, which no split search does in 20 s, and on models without a search annotation (jobshop
/// la01: 1.5 s against 5.8 s) free search's learned weights and restarts start anew in every
/// subproblem.
pub fn splits(optimising: bool) -> bool {
    !optimising
}

/// `config` with the run's seed, time limit and stop flag.
fn configured(config: SearchConfig, options: &RunOptions, time: Option<Duration>) -> SearchConfig {
    let mut config = config;
    config.seed = options.seed;
    config.limits.time = time;
    config.stop = options.stop.clone();
    config
}

/// The configuration of a learning search: the model's annotated decisions and activity-based
/// ones in turn, restart by restart, as Chuffed's free search runs a model (activity decides the
/// variables the annotations leave, the model's decision variables first). Under `-f`, or with
/// `activity_only` (a portfolio's free-search worker), activity decides everything.
pub(crate) fn learning_config(
    compiled: &Compiled,
    options: &RunOptions,
    time: Option<Duration>,
    activity_only: bool,
) -> SearchConfig {
    let free = activity_only || options.free_search;
    configured(compiled.search_config(free), options, time).learning(Learning {
        alternate: true,
        first: compiled.decision_vars().to_vec(),
        profile: options.learning_profile.unwrap_or(LEARNING_PROFILE),
        ..Learning::default()
    })
}

/// How strongly a learning search's propagators propagate unless `--learning-profile` says: each
/// at its strongest, as measured on the public suite (`fzn-csp -s -t 10000 --learning on --lns
/// off`, 28 November 2026, one run each on a shared machine). Bounds reasoning for all-different
/// (`short-reasons`) found CostasArray 15 in 1.7 s where the strongest found nothing in 10 s and
/// shortened black-hole 9's clauses from 332 to 285 literals, but reached worse Golomb rulers (10
/// marks: 60 against 55; 11 marks: 76 against 75) and took black-hole 1 from 0.3 s to 3.8 s; the
/// satisfaction problems it helps are searched without learning by default.
pub const LEARNING_PROFILE: csp_core::PropagationProfile = csp_core::PropagationProfile::Strongest;

/// Worker `i` of `-p N`. The workers of a split tree search its subproblems alike (so that none
/// holds the last subproblem long after the others are done), under an objective each with its
/// neighbourhoods between them. A portfolio's workers differ: the model's own search first (with
/// neighbourhoods as asked), then free search with neighbourhoods, then the model's search without
/// them, then free and annotated searches in turn, each with a seed of its own, so that no two
/// search the same tree. Unless `--learning` says otherwise, the second worker learns and the
/// others do not.
fn worker(
    compiled: &Compiled,
    options: &RunOptions,
    time: Option<Duration>,
    i: usize,
    split: bool,
    lns: bool,
) -> Worker {
    let learning = match options.learning {
        Some(Learns::Off) => false,
        Some(Learns::On) => true,
        Some(Learns::Mix) | None => i == 1,
    };
    let (free, neighbourhoods) = match i {
        _ if split => (options.free_search, lns),
        0 => (options.free_search, lns),
        1 => (true, true),
        2 => (options.free_search, false),
        _ if i % 2 == 1 => (true, true),
        _ => (options.free_search, true),
    };
    let mut config = if learning {
        learning_config(compiled, options, time, free)
    } else {
        configured(compiled.search_config(free), options, time)
    };
    config.seed = options.seed.wrapping_add(i as u64);
    let optimising = compiled.model().objective() != Objective::Satisfy;
    Worker {
        config,
        lns: (optimising && neighbourhoods).then(|| lns_config(compiled)),
        split,
    }
}

/// The large-neighbourhood search of a compiled model: its decision variables, and its output
/// arrays as grids.
fn lns_config(compiled: &Compiled) -> LnsConfig {
    LnsConfig {
        vars: compiled.decision_vars().to_vec(),
        grids: compiled.grids(),
        ..LnsConfig::default()
    }
}
