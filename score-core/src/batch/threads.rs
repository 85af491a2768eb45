//! The threads of a batch: how many cores, the host's lock released while they run, and an
//! ordered map over them. Below every other file of `batch`, which all use it.

/// Batches at least this large are split over the cores.
pub const PARALLEL_MIN: usize = 2048;

/// What a binding lends the batch functions: a way to let its other threads run while the
/// calling thread waits or scores (Python: release the GIL).
pub trait Host {
    /// Runs `f` with the host's lock released.
    fn detach<T: Send, F: FnOnce() -> T + Send>(&self, f: F) -> T;
}

/// A host without a lock (Rust callers, tests).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHost;

impl Host for NoHost {
    fn detach<T: Send, F: FnOnce() -> T + Send>(&self, f: F) -> T {
        f()
    }
}

/// The cores to use (at least 1).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// `f` over `items`, in order, split over the cores when there are at least
/// [`PARALLEL_MIN`] items.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = if items.len() >= PARALLEL_MIN { cores() } else { 1 };
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(items.len().div_ceil(threads))
            .map(|chunk| scope.spawn(move || chunk.iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut out = Vec::with_capacity(items.len());
        for handle in handles {
            out.extend(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        out
    })
}
