//! [`score_frame`] as a binding calls it: input columns named by the kind a host sends them as
//! ("f64", "i64", "cat", "bool": little-endian buffers) and the output handed back in the
//! host's own buffers, the recommendation keys turned into category codes and the failed rows
//! into error cells. What a binding of a columnar path does besides making one buffer and
//! converting its own values, written once (Python's `_score_columns` is this and
//! `PyBytes::new_with`).

use super::columns_in::{Column, Frame};
use super::columns_out::{Kind, layout};
use super::frame::{FrameExtras, recommendation_categories, score_frame, score_frame_calibrated};
use super::table::error_cells;
use super::threads::Host;

/// An input column of byte kind `kind`: "f64" (doubles, NaN missing), "i64", "cat" (32-bit
/// codes into `categories`, -1 missing) or "bool" (bytes, 2 missing).
pub fn byte_column<'a>(kind: &str, data: &'a [u8], categories: Option<Vec<String>>) -> Result<Column<'a>, String> {
    Ok(match kind {
        "f64" => Column::F64(data),
        "i64" => Column::I64(data),
        "cat" => Column::Cat(data, categories.unwrap_or_default()),
        "bool" => Column::Bool(data),
        other => return Err(format!("unknown column kind {other:?}")),
    })
}

/// An output column as a host returns it: name, kind ([`Kind::host_name`]), buffer and the
/// categories of a categorical column.
pub type HostColumn<B> = (String, &'static str, B, Option<Vec<String>>);

/// A failed row as a host returns it: (row, index of the first mistake's code in
/// `ErrorCode::ALL`, its field, its message, every mistake as JSON text).
pub type HostRowError = (usize, usize, Option<String>, String, String);

/// The output of [`score_host_frame`].
#[derive(Debug)]
pub struct HostFrame<B> {
    /// The row mask (1: scored).
    pub ok: B,
    /// The report's columns, in [`layout`] order.
    pub columns: Vec<HostColumn<B>>,
    /// The failed rows, in row order.
    pub errors: Vec<HostRowError>,
}

/// Scores every row of `frame` into the report's columns ([`layout`]), in buffers of the host.
///
/// `make` creates one host buffer of a length and calls its `fill` with the bytes before
/// anything else sees them (Python's `PyBytes::new_with`); `bytes` reads a buffer back. Every
/// output column is written in one parallel pass ([`score_frame`]), so the buffers are made
/// nested ([`nested`]). `None` when there is no buffer (no row mask).
pub fn score_host_frame<H: Host, B, E>(
    host: &H,
    frame: &Frame<'_>,
    make: impl Fn(usize, &mut dyn FnMut(&mut [u8]) -> Result<(), E>) -> Result<B, E>,
    bytes: impl Fn(&B) -> &[u8],
) -> Result<Option<HostFrame<B>>, E> {
    score_host_frame_calibrated(host, frame, make, bytes, None)
}

/// [`score_host_frame`] under `calibration`'s figures (`None`: the embedded calibration).
pub fn score_host_frame_calibrated<H: Host, B, E>(
    host: &H,
    frame: &Frame<'_>,
    make: impl Fn(usize, &mut dyn FnMut(&mut [u8]) -> Result<(), E>) -> Result<B, E>,
    bytes: impl Fn(&B) -> &[u8],
    calibration: Option<&crate::Calibration>,
) -> Result<Option<HostFrame<B>>, E> {
    let layout = layout();
    let allocate = |lengths: &[usize], fill: &mut dyn FnMut(Vec<&mut [u8]>)| {
        let mut made = Vec::with_capacity(lengths.len());
        nested(lengths, Vec::new(), &make, fill, &mut made)?;
        made.reverse();
        Ok(made)
    };
    let (buffers, FrameExtras { long, errors }) = match calibration {
        Some(calibration) => score_frame_calibrated(host, frame, &layout, allocate, calibration)?,
        None => score_frame(host, frame, &layout, allocate)?,
    };
    let mut buffers = buffers.into_iter();
    let Some(ok) = buffers.next() else { return Ok(None) };
    let mut columns = Vec::with_capacity(layout.len());
    let mut long = Some(long);
    for (column, data) in layout.into_iter().zip(buffers) {
        let categories = column.categories.map(|c| c.into_iter().map(str::to_owned).collect());
        if column.kind != Kind::Codes {
            columns.push((column.name, column.kind.host_name(), data, categories));
            continue;
        }
        // The recommendation keys become category codes, one category per distinct sequence.
        let mut names = Vec::new();
        let codes = make(frame.rows() * 4, &mut |buffer| {
            names = recommendation_categories(bytes(&data), long.take().unwrap_or_default(), buffer);
            Ok(())
        })?;
        columns.push((column.name, column.kind.host_name(), codes, Some(names)));
    }
    let errors = error_cells(&errors)
        .map(|(row, code, field, message, list)| (row, code, field.map(str::to_owned), message.to_owned(), list))
        .collect();
    Ok(Some(HostFrame { ok, columns, errors }))
}

/// Makes one buffer per length of `lengths` with `make` and calls `fill` once with all of them,
/// in order, before anything else sees any: each buffer is made inside the `fill` of the one
/// before, so all are writable at once though the host lends each only within its own call.
/// `out` receives the buffers innermost first.
fn nested<B, E>(
    lengths: &[usize],
    buffers: Vec<&mut [u8]>,
    make: &impl Fn(usize, &mut dyn FnMut(&mut [u8]) -> Result<(), E>) -> Result<B, E>,
    fill: &mut dyn FnMut(Vec<&mut [u8]>),
    out: &mut Vec<B>,
) -> Result<(), E> {
    let Some((&len, rest)) = lengths.split_first() else {
        fill(buffers);
        return Ok(());
    };
    let mut outer = Some(buffers);
    let made = make(len, &mut |buffer| {
        let mut buffers: Vec<&mut [u8]> = outer.take().unwrap_or_default();
        buffers.push(buffer);
        nested(rest, buffers, make, fill, out)
    })?;
    out.push(made);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::NoHost;

    #[test]
    fn a_host_frame_has_every_column_with_codes_as_categories() {
        let estados = ["CMX", "Jalisco", "Atlantis"];
        let codes: Vec<u8> = (0..3i32).flat_map(i32::to_le_bytes).collect();
        let ingresos: Vec<u8> = [30000.0f64, 25000.5, 1000.0].iter().flat_map(|f| f.to_le_bytes()).collect();
        let meses: Vec<u8> = [36i64, 14, 2].iter().flat_map(|i| i.to_le_bytes()).collect();
        let mut frame = Frame::new(3);
        let cats = estados.iter().map(|s| (*s).to_owned()).collect();
        frame.push("estado".into(), byte_column("cat", &codes, Some(cats)).expect("cat")).expect("len");
        frame.push("ingreso_mensual".into(), byte_column("f64", &ingresos, None).expect("f64")).expect("len");
        frame.push("antiguedad_meses".into(), byte_column("i64", &meses, None).expect("i64")).expect("len");
        let tipo = vec![Ok(serde_json::Value::from("asalariado")); 3];
        frame.push("tipo_ingreso".into(), Column::Values(tipo)).expect("len");
        assert!(byte_column("obj", &[], None).is_err());
        let out = score_host_frame(
            &NoHost,
            &frame,
            |len, fill| {
                let mut buffer = vec![0; len];
                fill(&mut buffer)?;
                Ok::<_, ()>(buffer)
            },
            |b| b.as_slice(),
        )
        .expect("scored")
        .expect("buffers");
        assert_eq!(out.ok, [1, 1, 0]);
        assert_eq!(out.columns.len(), layout().len());
        let (name, kind, codes, names) = out.columns.iter().find(|c| c.0 == "recomendaciones_codigos").expect("codes");
        assert_eq!((name.as_str(), *kind, codes.len()), ("recomendaciones_codigos", "cat", 12));
        assert!(names.as_ref().is_some_and(|n| !n.is_empty()));
        assert_eq!(out.errors.len(), 1);
        assert_eq!((out.errors[0].0, out.errors[0].2.as_deref()), (2, Some("estado")));
    }
}
