//! The batch pipeline of a binding whose profiles are read on one thread (Python's, with the
//! GIL): reading, scoring and emitting overlap, and the results come out in input order.

use super::threads::{Host, PARALLEL_MIN, cores, par_map};
use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// A batch that fits in this many profiles is read first and scored at once, over all cores.
pub const BLOCK: usize = 1 << 14;
/// Larger batches go through the pipeline in chunks of this many profiles...
pub const CHUNK: usize = 1 << 10;
/// ...with at most this many chunks read but not yet emitted.
pub const IN_FLIGHT: usize = 32;

/// The work queue of the scoring threads. No lock is held while waiting, so the calling
/// thread can always take a job.
struct Queue<J> {
    state: Mutex<(VecDeque<J>, bool)>,
    ready: Condvar,
}

impl<J> Queue<J> {
    fn new() -> Self {
        Queue { state: Mutex::new((VecDeque::new(), false)), ready: Condvar::new() }
    }

    fn lock(&self) -> MutexGuard<'_, (VecDeque<J>, bool)> {
        // Poisoned only if a thread panicked while holding it (the panic is re-raised on join).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn push(&self, job: J) {
        self.lock().0.push_back(job);
        self.ready.notify_one();
    }

    /// Drops what is queued and wakes every waiting worker: `next` returns `None` from now on.
    fn close(&self) {
        let mut state = self.lock();
        state.0.clear();
        state.1 = true;
        drop(state);
        self.ready.notify_all();
    }

    /// The oldest job, without waiting.
    fn try_next(&self) -> Option<J> {
        self.lock().0.pop_front()
    }

    /// The oldest job, waiting for one; `None` once closed.
    fn next(&self) -> Option<J> {
        let mut state = self.lock();
        loop {
            if state.1 {
                return None;
            }
            if let Some(job) = state.0.pop_front() {
                return Some(job);
            }
            state = self.ready.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Closes the queue when dropped, whatever ends the pipeline (an error, a raised exception).
struct CloseOnDrop<'a, J>(&'a Queue<J>);

impl<J> Drop for CloseOnDrop<'_, J> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Scores what `read` returns (up to `n` items a call; fewer means the end) with `score`,
/// and hands the results, in order, to `emit` with the index of the first.
///
/// The calling thread does what needs the host: it reads, in chunks of [`CHUNK`], and emits.
/// Scoring happens on `cores - 1` worker threads fed through a queue; at most [`IN_FLIGHT`]
/// chunks are read and not yet emitted. When the calling thread has nothing to emit and may
/// not read further ahead, it scores the oldest queued chunk itself (through `host.detach`)
/// rather than wait, so that every core stays busy whichever side is slower. A batch that
/// fits in one [`BLOCK`] is read first and scored over all cores. `stopped` is the error when
/// the workers are gone before the end (they only stop early when the pipeline ends).
pub fn pipeline<I: Send + Sync, T: Send, E>(
    host: &impl Host,
    read: &mut dyn FnMut(usize) -> Result<Vec<I>, E>,
    score: impl Fn(&I) -> T + Sync,
    mut emit: impl FnMut(Vec<T>, usize) -> Result<(), E>,
    stopped: impl Fn() -> E,
) -> Result<(), E> {
    let first = read(BLOCK)?;
    if first.len() < BLOCK {
        let out = host.detach(|| par_map(&first, &score));
        return emit(out, 0);
    }
    let workers = cores().saturating_sub(1).max(1);
    let queue = Queue::<(usize, Vec<I>)>::new();
    let (worker_out, from_workers) = mpsc::channel::<(usize, Vec<T>)>();
    let scored = |(seq, inputs): (usize, Vec<I>)| (seq, inputs.iter().map(&score).collect());
    const { assert!(BLOCK >= PARALLEL_MIN) };
    std::thread::scope(|scope| -> Result<(), E> {
        for _ in 0..workers {
            let worker_out = worker_out.clone();
            let queue = &queue;
            scope.spawn(move || {
                while let Some(job) = queue.next() {
                    if worker_out.send(scored(job)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(worker_out);
        let _close = CloseOnDrop(&queue);
        let (mut sent, mut first) = (0, first.into_iter());
        while first.len() > 0 {
            queue.push((sent, first.by_ref().take(CHUNK).collect()));
            sent += 1;
        }
        let mut from_workers = from_workers;
        let mut done: BTreeMap<usize, Vec<T>> = BTreeMap::new();
        let (mut emitted, mut start, mut more) = (0usize, 0usize, true);
        while more || emitted < sent {
            // Emit what is ready, in order.
            while let Ok((seq, out)) = from_workers.try_recv() {
                done.insert(seq, out);
            }
            if let Some(out) = done.remove(&emitted) {
                let len = out.len();
                emit(out, start)?;
                (start, emitted) = (start + len, emitted + 1);
                continue;
            }
            // Read ahead while the window allows.
            if more && sent - emitted < IN_FLIGHT {
                let chunk = read(CHUNK)?;
                more = chunk.len() == CHUNK;
                if !chunk.is_empty() {
                    queue.push((sent, chunk));
                    sent += 1;
                }
                continue;
            }
            // Nothing to emit and nothing to read: score the oldest queued chunk here, or wait.
            let queue = &queue;
            let (rx, result) = host.detach(move || {
                let result = match queue.try_next() {
                    Some(job) => Some(scored(job)),
                    None => from_workers.recv().ok(),
                };
                (from_workers, result)
            });
            from_workers = rx;
            let (seq, out) = result.ok_or_else(&stopped)?;
            done.insert(seq, out);
        }
        Ok(())
    })
}
