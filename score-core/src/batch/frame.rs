//! Scoring a [`Frame`] into output columns, on all cores.
//!
//! The output of a million rows is some 350 MB, which the host allocates (Python: `bytes`
//! objects, so that the columns reach pandas or Arrow without a copy). Allocating and zeroing
//! it takes the calling thread a good part of the run, so helper threads (`cores - 1`) start
//! scoring at once into chunk buffers of their own; once the output exists, the calling thread
//! scores chunks straight into it and copies the helpers' chunks in, one `memcpy` per column.

use super::columns_in::Frame;
use super::columns_out::{CODES_LONG, Categories, Kind, OutColumn, RowSink};
use super::threads::{Host, PARALLEL_MIN, cores};
use crate::error::ScoreError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Rows per unit of work.
const FRAME_CHUNK: usize = 1 << 13;

/// What scoring a frame reports besides the columns.
#[derive(Debug, Default)]
pub struct FrameExtras {
    /// The recommendation codes of the rows whose sequence did not fit a key, by row.
    pub long: Vec<(usize, Vec<u8>)>,
    /// The rows that failed, with their error, in row order.
    pub errors: Vec<(usize, ScoreError)>,
}

/// Output slices for a range of rows.
struct Target<'a> {
    first_row: usize,
    ok: &'a mut [u8],
    columns: Vec<&'a mut [u8]>,
    extras: FrameExtras,
}

impl Target<'_> {
    fn fill(&mut self, cifras: &crate::cifras::Cifras, frame: &Frame<'_>, layout: &[OutColumn]) {
        let mut sink = RowSink::default();
        for i in 0..self.ok.len() {
            let row = self.first_row + i;
            // Simulations are not columns: not computed.
            let opciones = crate::Opciones { simulaciones: false, productos: false };
            match frame.profile(row).and_then(|p| p.validate().map(|()| crate::model::report(cifras, &p, opciones))) {
                Ok(report) => {
                    self.ok[i] = 1;
                    if let Some(codes) = sink.write(&report, &mut self.columns, i) {
                        self.extras.long.push((row, codes));
                    }
                }
                Err(e) => {
                    self.ok[i] = 0;
                    RowSink::write_failed(layout, &mut self.columns, i);
                    self.extras.errors.push((row, e));
                }
            }
        }
    }
}

/// A chunk scored by a helper thread into its own buffers (reused from chunk to chunk).
struct ChunkBuf {
    chunk: usize,
    rows: usize,
    ok: Vec<u8>,
    columns: Vec<Vec<u8>>,
    extras: FrameExtras,
}

impl ChunkBuf {
    fn new(widths: &[usize]) -> Self {
        ChunkBuf {
            chunk: 0,
            rows: 0,
            ok: vec![0; FRAME_CHUNK],
            columns: widths.iter().map(|w| vec![0; FRAME_CHUNK * w]).collect(),
            extras: FrameExtras::default(),
        }
    }

    fn score(&mut self, cifras: &crate::cifras::Cifras, frame: &Frame<'_>, layout: &[OutColumn], chunk: usize, widths: &[usize]) {
        let first_row = chunk * FRAME_CHUNK;
        self.chunk = chunk;
        self.rows = FRAME_CHUNK.min(frame.rows() - first_row);
        let rows = self.rows;
        let mut target = Target {
            first_row,
            ok: &mut self.ok[..rows],
            columns: self.columns.iter_mut().zip(widths).map(|(c, w)| &mut c[..rows * w]).collect(),
            extras: FrameExtras::default(),
        };
        target.fill(cifras, frame, layout);
        self.extras = target.extras;
    }
}

/// Splits full-length output buffers into one target per chunk of rows.
fn targets<'a>(ok: &'a mut [u8], columns: Vec<&'a mut [u8]>, widths: &[usize]) -> Vec<Target<'a>> {
    let mut parts: Vec<_> = columns.into_iter().zip(widths).map(|(c, w)| c.chunks_mut(FRAME_CHUNK * w)).collect();
    let mut first_row = 0;
    let mut out = Vec::new();
    for ok in ok.chunks_mut(FRAME_CHUNK) {
        let rows = ok.len();
        let columns = parts.iter_mut().filter_map(Iterator::next).collect();
        out.push(Target { first_row, ok, columns, extras: FrameExtras::default() });
        first_row += rows;
    }
    out
}

/// The calling thread's part once the output exists: it takes chunks from `next` and scores
/// them straight into the columns, and copies in the chunks the helpers scored meanwhile (their
/// buffers go back through `recycle`), until every chunk is placed.
#[allow(clippy::too_many_arguments)]
fn fill(
    cifras: &crate::cifras::Cifras,
    frame: &Frame<'_>,
    layout: &[OutColumn],
    next: &AtomicUsize,
    ok: &mut [u8],
    columns: Vec<&mut [u8]>,
    widths: &[usize],
    helpers: mpsc::Receiver<ChunkBuf>,
    recycle: &mpsc::Sender<ChunkBuf>,
) -> FrameExtras {
    let mut targets = targets(ok, columns, widths);
    let mut extras: Vec<(usize, FrameExtras)> = Vec::with_capacity(targets.len());
    let place = |mut buf: ChunkBuf, targets: &mut [Target<'_>], extras: &mut Vec<(usize, FrameExtras)>| {
        if let Some(target) = targets.get_mut(buf.chunk) {
            target.ok.copy_from_slice(&buf.ok[..buf.rows]);
            for (dst, src) in target.columns.iter_mut().zip(&buf.columns) {
                let len = dst.len();
                dst.copy_from_slice(&src[..len]);
            }
        }
        extras.push((buf.chunk, std::mem::take(&mut buf.extras)));
        // A helper that has stopped does not need it back.
        let _ = recycle.send(buf);
    };
    loop {
        while let Ok(buf) = helpers.try_recv() {
            place(buf, &mut targets, &mut extras);
        }
        let chunk = next.fetch_add(1, Ordering::Relaxed);
        let Some(target) = targets.get_mut(chunk) else { break };
        target.fill(cifras, frame, layout);
        extras.push((chunk, std::mem::take(&mut target.extras)));
    }
    // Every chunk is taken: the helpers finish theirs and stop (closing the channel).
    for buf in helpers {
        place(buf, &mut targets, &mut extras);
    }
    extras.sort_unstable_by_key(|(chunk, _)| *chunk);
    let mut all = FrameExtras::default();
    for (_, e) in extras {
        all.long.extend(e.long);
        all.errors.extend(e.errors);
    }
    all
}

/// The byte lengths of the output buffers of `rows` rows: the row mask, then each column of
/// `layout` ([`Kind::width`] bytes a row).
pub fn output_lengths(layout: &[OutColumn], rows: usize) -> Vec<usize> {
    std::iter::once(rows).chain(layout.iter().map(|c| rows * c.kind.width())).collect()
}

/// Scores every row of `frame` into the columns of `layout`.
///
/// `allocate` creates one buffer per length of `lengths` ([`output_lengths`]) and calls `fill`
/// once with all of them, in order (the row mask first), before anything else sees them; it
/// returns what the host keeps of them. `fill` runs through `host.detach`. A row that fails
/// has mask 0, null values ([`RowSink::write_failed`]) and its error in the extras.
pub fn score_frame<H: Host, R, E>(
    host: &H,
    frame: &Frame<'_>,
    layout: &[OutColumn],
    allocate: impl FnOnce(&[usize], &mut dyn FnMut(Vec<&mut [u8]>)) -> Result<R, E>,
) -> Result<(R, FrameExtras), E> {
    score_frame_en(crate::cifras::Cifras::incluidas(), host, frame, layout, allocate)
}

/// [`score_frame`] under `calibration`'s figures.
pub fn score_frame_calibrated<H: Host, R, E>(
    host: &H,
    frame: &Frame<'_>,
    layout: &[OutColumn],
    allocate: impl FnOnce(&[usize], &mut dyn FnMut(Vec<&mut [u8]>)) -> Result<R, E>,
    calibration: &crate::Calibration,
) -> Result<(R, FrameExtras), E> {
    score_frame_en(calibration.cifras_modelo(), host, frame, layout, allocate)
}

fn score_frame_en<H: Host, R, E>(
    cifras: &crate::cifras::Cifras,
    host: &H,
    frame: &Frame<'_>,
    layout: &[OutColumn],
    allocate: impl FnOnce(&[usize], &mut dyn FnMut(Vec<&mut [u8]>)) -> Result<R, E>,
) -> Result<(R, FrameExtras), E> {
    let n_rows = frame.rows();
    let lengths = output_lengths(layout, n_rows);
    let widths: Vec<usize> = layout.iter().map(|c| c.kind.width()).collect();
    let n_chunks = n_rows.div_ceil(FRAME_CHUNK);
    let helpers = if n_rows >= PARALLEL_MIN { cores() - 1 } else { 0 };
    let next = AtomicUsize::new(0);
    let (to_main, from_helpers) = mpsc::channel::<ChunkBuf>();
    let (recycle, recycled) = mpsc::channel::<ChunkBuf>();
    let recycled = std::sync::Mutex::new(recycled);
    let mut extras = None;
    let widths = &widths[..];
    let kept = std::thread::scope(|scope| {
        for _ in 0..helpers {
            let (to_main, next, recycled) = (to_main.clone(), &next, &recycled);
            scope.spawn(move || {
                loop {
                    let chunk = next.fetch_add(1, Ordering::Relaxed);
                    if chunk >= n_chunks {
                        break;
                    }
                    let reused = recycled.lock().unwrap_or_else(std::sync::PoisonError::into_inner).try_recv();
                    let mut buf = reused.unwrap_or_else(|_| ChunkBuf::new(widths));
                    buf.score(cifras, frame, layout, chunk, widths);
                    if to_main.send(buf).is_err() {
                        break;
                    }
                }
            });
        }
        drop(to_main);
        // If anything below fails, the helpers take no further chunk.
        struct Exhaust<'a>(&'a AtomicUsize, usize);
        impl Drop for Exhaust<'_> {
            fn drop(&mut self) {
                self.0.fetch_max(self.1, Ordering::Relaxed);
            }
        }
        let _exhaust = Exhaust(&next, n_chunks);
        let mut from_helpers = Some(from_helpers);
        allocate(&lengths, &mut |mut buffers| {
            if buffers.is_empty() {
                return;
            }
            let ok = buffers.remove(0);
            let (next, recycle) = (&next, &recycle);
            if let Some(rx) = from_helpers.take() {
                extras = Some(host.detach(move || fill(cifras, frame, layout, next, ok, buffers, widths, rx, recycle)));
            }
        })
    })?;
    Ok((kept, extras.unwrap_or_default()))
}

/// Turns the 8-byte keys of `recomendaciones_codigos` (`keys`, as scored) into 4-byte category
/// codes in `codes`, and returns the categories: each distinct sequence of codes joined by
/// `|`, in order of first appearance. `long` holds the rows whose key is [`CODES_LONG`].
pub fn recommendation_categories(keys: &[u8], long: Vec<(usize, Vec<u8>)>, codes: &mut [u8]) -> Vec<String> {
    let mut categories = Categories::default();
    let mut long = long.into_iter().peekable();
    for (row, (key, code)) in keys.chunks_exact(8).zip(codes.chunks_exact_mut(4)).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(key);
        let key = u64::from_le_bytes(word);
        let value = categories.code(key, || {
            debug_assert_eq!(key, CODES_LONG);
            long.next_if(|(r, _)| *r == row).map(|(_, codes)| codes)
        });
        code.copy_from_slice(&value.to_le_bytes());
    }
    categories.names
}

/// True when `layout`'s last column holds the recommendation keys (what
/// [`recommendation_categories`] converts).
pub fn ends_with_codes(layout: &[OutColumn]) -> bool {
    layout.last().is_some_and(|c| c.kind == Kind::Codes)
}
