//! The benchmarks' one stopwatch ([`Clock`]): wall-clock time and time on a CPU since a start. On a
//! shared machine the two differ, and both matter: wall time is what a user waits, CPU time what the
//! work cost. Also the process's peak memory. Linux only for the CPU and memory readings (`/proc`);
//! elsewhere they read `None`.

// Each benchmark uses its own part of this module.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// Whose CPU time a [`Clock`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cpu {
    /// Every thread of the process: work that runs on several threads (a parallel construction).
    Process,
    /// The calling thread only: runs that each keep to one thread, several at once.
    Thread,
}

/// Wall-clock and CPU time since a start.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    wall: Instant,
    cpu: Option<Duration>,
    scope: Cpu,
}

impl Clock {
    /// Starts now, counting the CPU time of every thread of the process.
    pub fn process() -> Self {
        Clock::start(Cpu::Process)
    }

    /// Starts now, counting the CPU time of the calling thread (read it on the same thread).
    pub fn thread() -> Self {
        Clock::start(Cpu::Thread)
    }

    fn start(scope: Cpu) -> Self {
        Clock {
            wall: Instant::now(),
            cpu: cpu_time(scope),
            scope,
        }
    }

    /// The wall-clock time since the start.
    pub fn wall(&self) -> Duration {
        self.wall.elapsed()
    }

    /// The CPU time since the start, if the system says.
    pub fn cpu(&self) -> Option<Duration> {
        let (start, now) = (self.cpu?, cpu_time(self.scope)?);
        Some(now.saturating_sub(start))
    }

    /// "wall  1.234 s, cpu   2.35 s" (the wall time alone where the CPU time is unknown).
    pub fn read(&self) -> String {
        let wall = self.wall().as_secs_f64();
        match self.cpu() {
            Some(cpu) => format!("wall {wall:>6.3} s, cpu {:>6.2} s", cpu.as_secs_f64()),
            None => format!("wall {wall:>6.3} s"),
        }
    }
}

/// CPU time so far. The process's is user plus system time from `/proc/self/stat` (fields 14 and
/// 15, in clock ticks of 1/100 s, the value on every Linux this runs on); a thread's is its time on
/// a CPU from `/proc/thread-self/schedstat`, in nanoseconds, updated at the scheduler's ticks (so it
/// reads 0 for runs of a few milliseconds).
fn cpu_time(scope: Cpu) -> Option<Duration> {
    match scope {
        Cpu::Process => {
            let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
            // The command name (field 2) may hold spaces; the fields after it follow its closing
            // parenthesis.
            let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            let ticks = |index: usize| fields.get(index)?.parse::<u64>().ok();
            Some(Duration::from_millis((ticks(11)? + ticks(12)?) * 10))
        }
        Cpu::Thread => {
            let schedstat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
            let nanos: u64 = schedstat.split_whitespace().next()?.parse().ok()?;
            Some(Duration::from_nanos(nanos))
        }
    }
}

/// The process's peak resident memory in bytes (VmHWM in `/proc/self/status`).
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Resets the kernel's peak-RSS mark for this process (Linux ≥ 4.0), so that the next reading covers
/// only what follows. Where it is not allowed, readings are peaks since the process started.
pub fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}
