//! The report's compact JSON, written directly into a byte buffer.
//!
//! This is the hot path of the HTTP calculator and of every `score_json` call, so it does not go
//! through serde's derived `Serialize`: keys and punctuation are byte literals, numbers use
//! serde_json's own integer and float formatters (so the digits are the same), and texts are
//! copied as they are once a vectorisable scan shows that they hold nothing JSON must escape
//! (the model's Spanish texts never do; a text that does goes through serde_json's escaping).
//! Half the time of the serde path went to escaping those texts byte by byte.
//!
//! The derived `Serialize` stays the definition of the format: a test writes every fixture's
//! report, thousands of generated ones and hand-made reports with texts to escape both ways and
//! requires the same bytes, so a field added to the report without a line here fails it.

use crate::money;
use crate::report::{Componente, Recomendacion, ScoreReport};
use rust_decimal::Decimal;
use serde_json::ser::{CompactFormatter, Formatter};

/// Appends the compact JSON text of `report` to `out`, byte for byte what
/// `serde_json::to_writer(out, report)` writes.
pub(crate) fn write_report(report: &ScoreReport, out: &mut Vec<u8>) {
    let mut w = Writer(out);
    let c = &report.capacidad_compra_estimada;
    w.raw("{\"score\":");
    w.uint(u64::from(report.score));
    w.raw(",\"nivel\":\"");
    w.raw(report.nivel.as_str());
    w.raw("\",\"capacidad_compra_estimada\":{\"valor_bancario\":");
    w.number(c.valor_bancario);
    w.raw(",\"valor_realista\":");
    w.number(c.valor_realista);
    w.raw(",\"factor_platform_v2\":");
    w.number(c.factor_platform_v2);
    w.raw(",\"ltv\":");
    w.number(c.ltv);
    w.raw(",\"pago_mensual_estimado\":");
    w.number(c.pago_mensual_estimado);
    w.raw(",\"credito_max\":");
    w.number(c.credito_max);
    w.raw(",\"m2_alcanzables\":");
    w.number(c.m2_alcanzables);
    w.raw(",\"m2_minimo_nucleo\":");
    w.number(c.m2_minimo_nucleo);
    w.raw(",\"evaluacion_m2\":\"");
    w.raw(c.evaluacion_m2.as_str());
    w.raw("\",\"enganche_requerido\":");
    w.number(c.enganche_requerido);
    w.raw(",\"enganche_disponible\":");
    w.number(c.enganche_disponible);
    w.raw(",\"subcuenta_fondo_estimada\":");
    w.number(c.subcuenta_fondo_estimada);
    w.raw(",\"estatus_enganche\":\"");
    w.raw(c.estatus_enganche.as_str());
    w.raw("\",\"renta_equivalente\":");
    w.number(c.renta_equivalente);
    w.raw(",\"gastos_cierre_estimados\":");
    w.number(c.gastos_cierre_estimados);
    w.raw(",\"tasa_anual\":");
    w.number(c.tasa_anual);
    w.raw(",\"plazo_anios\":");
    w.uint(u64::from(c.plazo_anios));
    w.raw(",\"precio_m2_estado\":");
    w.number(c.precio_m2_estado);

    let s = &report.salud_financiera;
    w.raw("},\"salud_financiera\":{\"score\":");
    w.number(s.score);
    w.raw(",\"costo_vida_digno\":");
    w.number(s.costo_vida_digno);
    w.raw(",\"ingreso_disponible\":");
    w.number(s.ingreso_disponible);
    w.raw(",\"ratio\":");
    w.number(s.ratio);

    w.raw("},\"recomendaciones\":[");
    for (i, text) in report.recomendaciones.iter().enumerate() {
        if i > 0 {
            w.raw(",");
        }
        w.text(text);
    }
    w.raw("],\"disclaimer\":");
    w.text(&report.disclaimer);
    w.raw(",\"valor_vivienda_max\":");
    w.number(report.valor_vivienda_max);
    w.raw(",\"credito_max\":");
    w.number(report.credito_max);
    w.raw(",\"enganche_min\":");
    w.number(report.enganche_min);
    w.raw(",\"pago_mensual_estimado\":");
    w.number(report.pago_mensual_estimado);
    w.raw(",\"renta_estimada\":");
    w.number(report.renta_estimada);
    w.raw(",\"modelo_version\":");
    w.text(&report.modelo_version);

    let e = &report.estado;
    w.raw(",\"estado\":{\"clave\":");
    w.text(&e.clave);
    w.raw(",\"codigo\":");
    w.text(&e.codigo);
    w.raw(",\"nombre\":");
    w.text(&e.nombre);

    let k = &report.componentes;
    w.raw("},\"componentes\":{\"ingreso\":");
    w.componente(&k.ingreso);
    w.raw(",\"tipo_ingreso\":");
    w.componente(&k.tipo_ingreso);
    w.raw(",\"antiguedad\":");
    w.componente(&k.antiguedad);
    w.raw(",\"deudas\":");
    w.componente(&k.deudas);
    w.raw(",\"ahorro\":");
    w.componente(&k.ahorro);
    w.raw(",\"salud_financiera\":");
    w.componente(&k.salud_financiera);

    w.raw("},\"recomendaciones_detalle\":[");
    for (i, Recomendacion { codigo, texto }) in report.recomendaciones_detalle.iter().enumerate() {
        w.raw(if i > 0 { ",{\"codigo\":\"" } else { "{\"codigo\":\"" });
        w.raw(codigo.as_str());
        w.raw("\",\"texto\":");
        w.text(texto);
        w.raw("}");
    }
    w.raw("]}");
}

struct Writer<'a>(&'a mut Vec<u8>);

impl Writer<'_> {
    /// JSON text known to need no escaping: this module's literals and the wire names of enums.
    fn raw(&mut self, text: &str) {
        self.0.extend_from_slice(text.as_bytes());
    }

    // Writing into a `Vec` cannot fail, so the formatters' `io::Result`s carry nothing.
    fn uint(&mut self, value: u64) {
        let _ = CompactFormatter.write_u64(self.0, value);
    }

    /// A shown figure, as `money::number` writes it: an integer when whole, else the double.
    fn number(&mut self, value: Decimal) {
        match money::whole(value) {
            Some(int) => {
                let _ = CompactFormatter.write_i64(self.0, int);
            }
            None => {
                let f = money::to_f64(value);
                // serde_json writes non-finite doubles as null (no shown figure is one).
                let _ = if f.is_finite() {
                    CompactFormatter.write_f64(self.0, f)
                } else {
                    CompactFormatter.write_null(self.0)
                };
            }
        }
    }

    fn text(&mut self, text: &str) {
        if needs_no_escape(text.as_bytes()) {
            self.0.push(b'"');
            self.0.extend_from_slice(text.as_bytes());
            self.0.push(b'"');
        } else {
            let _ = serde_json::to_writer(&mut *self.0, text);
        }
    }

    fn componente(&mut self, k: &Componente) {
        self.raw("{\"valor\":");
        self.number(k.valor);
        self.raw(",\"peso\":");
        self.number(k.peso);
        self.raw(",\"puntos\":");
        self.number(k.puntos);
        self.raw("}");
    }
}

/// True when no byte of `bytes` is one JSON escapes (`"`, `\` or a control character). Written
/// without an early exit inside each block so that the compiler vectorises it.
fn needs_no_escape(bytes: &[u8]) -> bool {
    bytes.chunks(64).all(|block| {
        block
            .iter()
            .fold(0u8, |bad, &b| bad | u8::from(b < 0x20) | u8::from(b == b'"') | u8::from(b == b'\\'))
            == 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Text;

    #[test]
    fn escape_scan_finds_every_byte_json_escapes() {
        for b in 0u8..=127 {
            let escaped = b < 0x20 || b == b'"' || b == b'\\';
            // At every position of a block and across block boundaries.
            for at in [0, 7, 63, 64, 100] {
                let mut text = vec![b'a'; 130];
                text[at] = b;
                assert_eq!(needs_no_escape(&text), !escaped, "byte {b:#x} at {at}");
            }
        }
        assert!(needs_no_escape("Ciudad de México, núcleo básico, año".as_bytes()));
        assert!(needs_no_escape(b""));
    }

    fn sample_report() -> ScoreReport {
        let profile = crate::Profile::from_json_str(
            r#"{"estado":"JAL","ingreso_mensual":18000,"tipo_ingreso":"mixto","antiguedad_meses":8,"edad":61}"#,
        )
        .expect("a valid profile");
        crate::score(&profile).expect("a valid profile scores")
    }

    /// Texts that must be escaped (as a report read back from edited JSON could hold) still
    /// give serde_json's bytes.
    #[test]
    fn texts_to_escape_match_serde() {
        let mut report = sample_report();
        let odd: Text = "comillas \" barra \\ salto\n tab\t nulo\u{0} fin".to_owned().into();
        report.disclaimer = odd.clone();
        report.recomendaciones.push(odd.clone());
        report.recomendaciones_detalle[0].texto = odd.clone();
        report.estado.nombre = odd;
        let mut ours = Vec::new();
        write_report(&report, &mut ours);
        assert_eq!(String::from_utf8(ours).ok(), serde_json::to_string(&report).ok());
    }

    #[test]
    fn writes_what_serde_writes() {
        let report = sample_report();
        let mut ours = b"prefix:".to_vec();
        write_report(&report, &mut ours);
        assert_eq!(&ours[..7], b"prefix:");
        assert_eq!(String::from_utf8(ours[7..].to_vec()).ok(), serde_json::to_string(&report).ok());
    }
}
