//! An exact decimal figure as a calibration writes it: a TOML number (read from its shortest
//! decimal form, `0.1165` is exactly 0.1165) or, for more digits than a double keeps, a string
//! (`"0.116500000000000000001"`). Written back the same way, so a document read and written again
//! holds the same figures.

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};
use std::str::FromStr;

/// An exact figure of the calibration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Valor(pub Decimal);

impl Valor {
    /// The figure as a double whose shortest form is its exact digits, when there is one.
    fn como_doble(self) -> Option<f64> {
        let doble: f64 = self.0.to_string().parse().ok()?;
        let vuelta = Decimal::from_str(&doble.to_string()).ok()?;
        (vuelta == self.0 && doble.is_finite()).then_some(doble)
    }
}

impl Serialize for Valor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = self.0.normalize();
        if d.scale() == 0 {
            if let Ok(entero) = i64::try_from(d.mantissa()) {
                return serializer.serialize_i64(entero);
            }
        }
        match self.como_doble() {
            Some(doble) => serializer.serialize_f64(doble),
            None => serializer.serialize_str(&d.to_string()),
        }
    }
}

/// The most significant digits a decimal text may have for its double's shortest form to be
/// that text (`f64::DIGITS`: two decimals of at most 15 digits are two doubles).
const DIGITOS_DOBLE: usize = f64::DIGITS as usize;

/// [`Valor::de_doble`] of a text already in its double's shortest form, read without the
/// double: plain digits with a point, no trailing zero after it, at most [`DIGITOS_DOBLE`]
/// significant digits. Two decimals of so few digits are two doubles, so no shorter text reads
/// back as this one's double, and Rust writes a double's shortest form without an exponent:
/// `v.to_string()` is the text itself. (Formatting each of a calibration's some eight hundred
/// figures and reading it back was a twentieth of loading it.) `None` for any other text,
/// which `de_doble` reads through its double.
fn corto(texto: &str) -> Option<Valor> {
    let b = texto.as_bytes();
    let punto = b.iter().position(|&c| c == b'.')?;
    let (entera, fraccion) = (&b[..punto], &b[punto + 1..]);
    let digitos = |parte: &[u8]| !parte.is_empty() && parte.iter().all(u8::is_ascii_digit);
    if !digitos(entera) || !digitos(fraccion) || fraccion.last() == Some(&b'0') || (entera.len() > 1 && entera[0] == b'0') {
        return None;
    }
    // Significant digits: from the first that is not 0 to the end.
    let primero = b.iter().position(|&c| c != b'0' && c != b'.')?;
    let significativos = b.len() - primero - usize::from(primero < punto);
    (significativos <= DIGITOS_DOBLE).then(|| Decimal::from_str(texto).ok().map(Valor)).flatten()
}

impl Valor {
    /// A TOML integer, as its digits in `radix`.
    pub(super) fn de_entero(digitos: &str, radix: u32) -> Result<Valor, String> {
        i64::from_str_radix(digitos, radix)
            .map(Decimal::from)
            .or_else(|_| u64::from_str_radix(digitos, radix).map(Decimal::from))
            .map(Valor)
            .map_err(|_| format!("el número {digitos} no cabe en un decimal de 28 dígitos"))
    }

    /// A TOML float: the shortest text that reads back as its double, the digits the document
    /// wrote (a double keeps some 15 of them; more are written as text, `de_texto`).
    pub(super) fn de_doble(texto: &str) -> Result<Valor, String> {
        if let Some(valor) = corto(texto) {
            return Ok(valor);
        }
        let v: f64 = texto.parse().map_err(|_| format!("«{texto}» no es un número"))?;
        if !v.is_finite() {
            return Err("el número no es finito".to_owned());
        }
        Decimal::from_str(&v.to_string())
            .or_else(|_| Decimal::from_scientific(&format!("{v:e}")))
            .map(Valor)
            .map_err(|_| format!("el número {v} no cabe en un decimal de 28 dígitos"))
    }

    /// A figure written as text, for more digits than a double keeps.
    pub(super) fn de_texto(v: &str) -> Result<Valor, String> {
        Decimal::from_str(v.trim()).map(Valor).map_err(|_| format!("«{v}» no es un número decimal"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow reading: through the double's shortest form.
    fn por_el_doble(texto: &str) -> Option<Decimal> {
        let v: f64 = texto.parse().ok()?;
        Decimal::from_str(&v.to_string()).ok()
    }

    /// A text read without its double is the one read through it, digit and scale alike, for
    /// every text `corto` takes; and it refuses the texts whose shortest form differs.
    #[test]
    fn a_short_decimal_is_its_doubles_shortest_form() {
        let mut x: u64 = 5;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let mut tomados = 0;
        for _ in 0..200_000 {
            let digitos = 1 + next(17) as usize;
            let mut m = String::new();
            for _ in 0..digitos {
                m.push(char::from(b'0' + next(10) as u8));
            }
            let punto = next(digitos as u64 + 3) as usize;
            let texto = if punto >= digitos { format!("0.{}{m}", "0".repeat(punto - digitos)) } else { format!("{}.{}", &m[..digitos - punto], &m[digitos - punto..]) };
            let texto = texto.trim_start_matches('0');
            let texto = if texto.starts_with('.') { format!("0{texto}") } else { texto.to_owned() };
            if let Some(v) = corto(&texto) {
                tomados += 1;
                let lento = por_el_doble(&texto).expect("a number");
                assert_eq!(format!("{:?}", v.0), format!("{lento:?}"), "{texto}");
            }
        }
        assert!(tomados > 50_000, "{tomados}");
        for texto in ["0.1154", "12.5", "0.00001", "315.04", "99999999999999.9"] {
            assert!(corto(texto).is_some(), "{texto}");
        }
        for texto in ["1.0", "0.10", "1e3", "-0.5", "1_000.5", "0.1234567890123456", "999999999999999.9", "00.5", "5", ".5", "5."] {
            assert!(corto(texto).is_none(), "{texto}");
        }
        for texto in ["0.1154", "12.5", "0.30000000000000004", "1.0", "0.10", "1e3", "-0.5", "123456789.123456789"] {
            assert_eq!(Valor::de_doble(texto).ok().map(|v| v.0), por_el_doble(texto), "{texto}");
        }
    }
}
