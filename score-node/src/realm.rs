//! Per-realm state: the helper functions generated at build time (`score_helpers.mjs`, which
//! index.js hands to [`crate::install_helpers`] as the package loads) and the buffers they read
//! and write, kept as the env's instance data (each realm, e.g. a worker thread, has its own).

use napi::{Env, Error, Result, Status, check_status, sys};
use score_core::{Profile, ScoreError, ScoreReport};
use score_js::flat::{CAPACITY, Flat};
use score_js::input::{GATHER_BYTES, GATHER_DOUBLES, gathered};

/// The realm's helpers and buffers.
#[derive(Debug)]
pub(crate) struct Realm {
    flat: Flat,
    /// The JS array of cached texts (`S` of the builder) and its length.
    strings: sys::napi_ref,
    strings_len: u32,
    /// The report builder and the backing store of the `ArrayBuffer` it reads ([`CAPACITY`]
    /// doubles; the builder's closure keeps it alive).
    build: sys::napi_ref,
    data: *mut f64,
    /// The gather function and the backing store of the buffer it writes ([`GATHER_DOUBLES`]
    /// doubles, then [`GATHER_BYTES`] bytes).
    gather: sys::napi_ref,
    input: *mut u8,
    /// The `ScoreError` class of the helper module (what the package throws).
    error_class: sys::napi_ref,
}

/// Runs one N-API call that reports through `napi_status`.
macro_rules! napi_call {
    ($call:expr) => {
        // SAFETY: every call passes the env of the current callback, values created in that
        // env during it (or held through references of the same env), pointers and lengths of
        // live Rust data (a text, an argument slice, a NUL-terminated name) and out-pointers to
        // live locals, as N-API requires.
        check_status!(unsafe { $call })
    };
}

fn reference(env: sys::napi_env, value: sys::napi_value) -> Result<sys::napi_ref> {
    let mut r = std::ptr::null_mut();
    napi_call!(sys::napi_create_reference(env, value, 1, &mut r))?;
    Ok(r)
}

fn deref(env: sys::napi_env, r: sys::napi_ref) -> Result<sys::napi_value> {
    let mut v = std::ptr::null_mut();
    napi_call!(sys::napi_get_reference_value(env, r, &mut v))?;
    Ok(v)
}

fn call(env: sys::napi_env, f: sys::napi_value, args: &[sys::napi_value]) -> Result<sys::napi_value> {
    let (mut this, mut out) = (std::ptr::null_mut(), std::ptr::null_mut());
    napi_call!(sys::napi_get_undefined(env, &mut this))?;
    napi_call!(sys::napi_call_function(env, this, f, args.len(), args.as_ptr(), &mut out))?;
    Ok(out)
}

fn number(env: sys::napi_env, value: f64) -> Result<sys::napi_value> {
    let mut v = std::ptr::null_mut();
    napi_call!(sys::napi_create_double(env, value, &mut v))?;
    Ok(v)
}

/// A new `ArrayBuffer` of `len` bytes, as the object `{ buffer }` that the helper factories
/// take (where score-wasm passes WebAssembly's memory), and its backing store.
fn buffer_holder(env: sys::napi_env, len: usize) -> Result<(*mut u8, sys::napi_value)> {
    let (mut data, mut buffer, mut holder) = (std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut());
    napi_call!(sys::napi_create_arraybuffer(env, len, &mut data, &mut buffer))?;
    if data.align_offset(8) != 0 {
        // V8 allocates backing stores 16-aligned; the doubles are read in place.
        return Err(Error::new(Status::GenericFailure, "unaligned ArrayBuffer"));
    }
    napi_call!(sys::napi_create_object(env, &mut holder))?;
    napi_call!(sys::napi_set_named_property(env, holder, c"buffer".as_ptr(), buffer))?;
    Ok((data.cast(), holder))
}

impl Realm {
    /// The realm of the helper factories `makeReportBuilder` and `makeProfileGather`.
    pub(crate) fn new(
        env: sys::napi_env,
        make_builder: sys::napi_value,
        make_gather: sys::napi_value,
        error_class: sys::napi_value,
    ) -> Result<Realm> {
        let mut strings = std::ptr::null_mut();
        napi_call!(sys::napi_create_array(env, &mut strings))?;
        let (data, holder) = buffer_holder(env, CAPACITY * 8)?;
        let build = call(env, make_builder, &[holder, number(env, 0.0)?, strings])?;
        let doubles = GATHER_DOUBLES * 8;
        let (input, holder) = buffer_holder(env, doubles + GATHER_BYTES)?;
        #[allow(clippy::cast_precision_loss)] // a few hundred
        let gather = call(env, make_gather, &[holder, number(env, 0.0)?, number(env, doubles as f64)?])?;
        Ok(Realm {
            flat: Flat::default(),
            strings: reference(env, strings)?,
            strings_len: 0,
            build: reference(env, build)?,
            data: data.cast(),
            gather: reference(env, gather)?,
            input,
            error_class: reference(env, error_class)?,
        })
    }

    /// The report as a JS object, or `None` when [`Flat`] cannot write it.
    fn report(&mut self, env: sys::napi_env, report: &ScoreReport) -> Result<Option<sys::napi_value>> {
        if !self.flat.write(report) {
            return Ok(None);
        }
        if !self.flat.texts.pending.is_empty() {
            let strings = deref(env, self.strings)?;
            for s in std::mem::take(&mut self.flat.texts.pending) {
                napi_call!(sys::napi_set_element(env, strings, self.strings_len, text(env, s)?))?;
                self.strings_len += 1;
            }
        }
        let values = self.flat.values();
        // SAFETY: `data` is the backing store of the builder's buffer, CAPACITY doubles that
        // live as long as the builder (held by this realm); `Flat::write` keeps `values`
        // within CAPACITY, and no JS runs during the copy.
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), self.data, values.len().min(CAPACITY)) };
        call(env, deref(env, self.build)?, &[]).map(Some)
    }
}

/// The env's realm; an error when index.js did not install the helpers (the addon was loaded
/// without its package).
fn realm(env: &Env) -> Result<&'static mut Realm> {
    env.get_instance_data::<Realm>()?.ok_or_else(|| {
        Error::new(Status::GenericFailure, "score-node: load the package (index.js), not the .node file alone")
    })
}

/// Makes the env's realm (once: a second call keeps the first).
pub(crate) fn install(
    env: &Env,
    make_builder: sys::napi_value,
    make_gather: sys::napi_value,
    error_class: sys::napi_value,
) -> Result<()> {
    if env.get_instance_data::<Realm>()?.is_none() {
        env.set_instance_data(Realm::new(env.raw(), make_builder, make_gather, error_class)?, (), |_| {})?;
    }
    Ok(())
}

fn text(env: sys::napi_env, s: &str) -> Result<sys::napi_value> {
    let mut v = std::ptr::null_mut();
    #[allow(clippy::cast_possible_wrap)] // a message of a few hundred bytes
    napi_call!(sys::napi_create_string_utf8(env, s.as_ptr().cast(), s.len() as isize, &mut v))?;
    Ok(v)
}

/// A new `ScoreError` (the helper module's class) for `error`, with `index` for an item of a
/// batch: the message is score-core's (`host::error_message`).
pub(crate) fn score_error(env: &Env, error: &ScoreError, index: Option<usize>) -> Result<sys::napi_value> {
    let message = score_core::host::error_message(error, index);
    let errors = serde_json::to_string(&error.errors).ok();
    new_error(env, &message, error.code.as_str(), error.field.as_deref(), index, errors.as_deref())
}

/// A new `ScoreError` with these `message`, `code`, `field` (null when `None`), `index`
/// (absent when `None`) and `errors`, every mistake as score-core's JSON text (`None`: the one
/// mistake of `code` and `field`).
pub(crate) fn new_error(
    env: &Env,
    message: &str,
    code: &str,
    field: Option<&str>,
    index: Option<usize>,
    errors: Option<&str>,
) -> Result<sys::napi_value> {
    let class = realm(env)?.error_class;
    let raw = env.raw();
    let mut missing = std::ptr::null_mut();
    let field = match field {
        Some(f) => text(raw, f)?,
        None => {
            napi_call!(sys::napi_get_null(raw, &mut missing))?;
            missing
        }
    };
    #[allow(clippy::cast_precision_loss)] // an array index (< 2^32)
    let index = match index {
        Some(i) => number(raw, i as f64)?,
        None => {
            napi_call!(sys::napi_get_undefined(raw, &mut missing))?;
            missing
        }
    };
    let errors = match errors {
        Some(json) => text(raw, json)?,
        None => {
            let mut undefined = std::ptr::null_mut();
            napi_call!(sys::napi_get_undefined(raw, &mut undefined))?;
            undefined
        }
    };
    let args = [text(raw, message)?, text(raw, code)?, field, index, errors];
    let mut out = std::ptr::null_mut();
    napi_call!(sys::napi_new_instance(raw, deref(raw, class)?, args.len(), args.as_ptr(), &mut out))?;
    Ok(out)
}

/// The report as a plain JS object built by the realm's builder, or `None` for a report the
/// builder cannot take (an owned text), which the caller converts through JSON text.
pub(crate) fn build_report(env: &Env, report: &ScoreReport) -> Result<Option<sys::napi_value>> {
    realm(env)?.report(env.raw(), report)
}

/// The profile `v` read by the realm's gather function, or `None` when it is not a flat
/// object. No borrow of the realm is held while JS runs (a getter may score).
pub(crate) fn gather(env: &Env, v: sys::napi_value) -> Result<Option<Profile>> {
    let (function, input) = {
        let realm = realm(env)?;
        (realm.gather, realm.input)
    };
    let raw = env.raw();
    let out = call(raw, deref(raw, function)?, &[v])?;
    let mut used = -1.0;
    napi_call!(sys::napi_get_value_double(raw, out, &mut used))?;
    if !(0.0..=GATHER_BYTES as f64).contains(&used) {
        return Ok(None);
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked just above
    let used = used as usize;
    // SAFETY: `input` is the backing store of the gather function's buffer, GATHER_DOUBLES
    // doubles (8-aligned, at its start) then GATHER_BYTES bytes, alive as long as that function
    // (held by the realm); no JS ran since the function wrote it.
    let (doubles, bytes) = unsafe {
        (
            std::slice::from_raw_parts(input.cast::<f64>(), GATHER_DOUBLES),
            std::slice::from_raw_parts(input.add(GATHER_DOUBLES * 8), used),
        )
    };
    Ok(gathered(doubles, bytes))
}

/// Runs `f` in a handle scope of its own, so that the handles a batch makes for one chunk are
/// released when the chunk is done (the result array holds the values).
pub(crate) fn in_scope<T>(env: &Env, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let raw = env.raw();
    let mut scope = std::ptr::null_mut();
    napi_call!(sys::napi_open_handle_scope(raw, &mut scope))?;
    let out = f();
    napi_call!(sys::napi_close_handle_scope(raw, scope))?;
    out
}
