//! The 32 federal entities of Mexico: who they are, not what they cost.
//!
//! Each row holds the INEGI key, the ISO 3166-2:MX code (without `MX-`), the official short
//! name and the names people commonly type. The model's per-state figures (the cost-of-living
//! factor `factor_platform_v2`, the housing price per m², the transfer tax) are the
//! calibration's (`estados` of `calibration/mx-2026.toml`, by INEGI order); `MODEL.md` (section
//! "States") documents both, and a test keeps that table, this one and the calibration identical.

use serde::{Deserialize, Serialize};

/// One federal entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateInfo {
    /// INEGI two-digit key, "01".."32".
    pub clave: &'static str,
    /// ISO 3166-2:MX subdivision code without the `MX-` prefix.
    pub iso: &'static str,
    /// Official short name, with accents.
    pub nombre: &'static str,
    /// Other accepted spellings, already normalised (lowercase ASCII, single spaces).
    pub aliases: &'static [&'static str],
}

/// A federal entity, identified by its INEGI key (1..=32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State(u8);

macro_rules! state {
    ($clave:literal, $iso:literal, $nombre:literal, [$($alias:literal),*]) => {
        StateInfo { clave: $clave, iso: $iso, nombre: $nombre, aliases: &[$($alias),*] }
    };
}

/// The state table, in INEGI order (index = clave - 1).
pub const STATES: [StateInfo; 32] = [
    state!("01", "AGU", "Aguascalientes", ["aguascalientes"]),
    state!("02", "BCN", "Baja California", ["baja california"]),
    state!("03", "BCS", "Baja California Sur", ["baja california sur"]),
    state!("04", "CAM", "Campeche", ["campeche"]),
    state!("05", "COA", "Coahuila", ["coahuila", "coahuila de zaragoza"]),
    state!("06", "COL", "Colima", ["colima"]),
    state!("07", "CHP", "Chiapas", ["chiapas"]),
    state!("08", "CHH", "Chihuahua", ["chihuahua"]),
    state!("09", "CMX", "Ciudad de México", ["ciudad de mexico", "cdmx", "distrito federal", "mexico city"]),
    state!("10", "DUR", "Durango", ["durango"]),
    state!("11", "GUA", "Guanajuato", ["guanajuato"]),
    state!("12", "GRO", "Guerrero", ["guerrero"]),
    state!("13", "HID", "Hidalgo", ["hidalgo"]),
    state!("14", "JAL", "Jalisco", ["jalisco"]),
    state!("15", "MEX", "México", ["mexico", "estado de mexico", "edomex"]),
    state!("16", "MIC", "Michoacán", ["michoacan", "michoacan de ocampo"]),
    state!("17", "MOR", "Morelos", ["morelos"]),
    state!("18", "NAY", "Nayarit", ["nayarit"]),
    state!("19", "NLE", "Nuevo León", ["nuevo leon"]),
    state!("20", "OAX", "Oaxaca", ["oaxaca"]),
    state!("21", "PUE", "Puebla", ["puebla"]),
    state!("22", "QUE", "Querétaro", ["queretaro", "queretaro de arteaga"]),
    state!("23", "ROO", "Quintana Roo", ["quintana roo"]),
    state!("24", "SLP", "San Luis Potosí", ["san luis potosi"]),
    state!("25", "SIN", "Sinaloa", ["sinaloa"]),
    state!("26", "SON", "Sonora", ["sonora"]),
    state!("27", "TAB", "Tabasco", ["tabasco"]),
    state!("28", "TAM", "Tamaulipas", ["tamaulipas"]),
    state!("29", "TLA", "Tlaxcala", ["tlaxcala"]),
    state!("30", "VER", "Veracruz", ["veracruz", "veracruz de ignacio de la llave"]),
    state!("31", "YUC", "Yucatán", ["yucatan"]),
    state!("32", "ZAC", "Zacatecas", ["zacatecas"]),
];

impl State {
    /// Every state, in INEGI order.
    pub fn all() -> impl Iterator<Item = State> {
        (1..=32u8).map(State)
    }

    /// The state with INEGI key `clave` (1..=32).
    pub const fn from_inegi(clave: u8) -> Option<State> {
        if clave >= 1 && clave <= 32 { Some(State(clave)) } else { None }
    }

    /// The INEGI key (1..=32); `inegi() - 1` is the state's index in [`STATES`].
    pub const fn inegi(self) -> u8 {
        self.0
    }

    /// This state's row of [`STATES`].
    pub fn info(self) -> &'static StateInfo {
        &STATES[usize::from(self.0 - 1)]
    }

    /// Parses what a person or a system typically sends: the ISO 3166-2:MX code with or
    /// without `MX-` (`"CMX"`, `"MX-JAL"`), the INEGI key (`"09"`), or the state's name in any
    /// case and with or without accents (`"Nuevo León"`, `"nuevo leon"`, `"Estado de México"`).
    /// It allocates nothing.
    pub fn parse(text: &str) -> Option<State> {
        // The canonical form (`"CMX"`), which nearly every caller sends, without normalising
        // (three bytes compared as one number rather than as a slice, which calls `memcmp`).
        if let &[a, b, c] = text.as_bytes() {
            let code = |iso: &[u8]| u32::from_le_bytes([iso[0], iso[1], iso[2], 0]);
            let wanted = code(&[a, b, c]);
            if let Some(i) = STATES.iter().position(|s| code(s.iso.as_bytes()) == wanted) {
                return State::from_inegi(i as u8 + 1);
            }
        }
        let mut buf = [0u8; 48];
        let key = normalise(text, &mut buf)?;
        let key = key.strip_prefix("mx ").unwrap_or(key);
        if key.len() == 2 && key.bytes().all(|b| b.is_ascii_digit()) {
            let n = (key.as_bytes()[0] - b'0') * 10 + (key.as_bytes()[1] - b'0');
            return State::from_inegi(n);
        }
        STATES.iter().position(|s| {
            (key.len() == 3 && s.iso.eq_ignore_ascii_case(key)) || s.aliases.contains(&key)
        })
        .and_then(|i| State::from_inegi(i as u8 + 1))
    }
}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.info().iso)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        State::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown state {text:?}")))
    }
}

/// Lowercases, strips Spanish accents, turns `-`, `_`, `.` and runs of white space into one
/// space and trims, writing into `buf`. `None` when the text has other non-ASCII letters or
/// is longer than the buffer (no state name is).
fn normalise<'b>(text: &str, buf: &'b mut [u8; 48]) -> Option<&'b str> {
    let mut len = 0;
    let mut pending_space = false;
    for ch in text.trim().chars() {
        let mapped = match ch {
            'á' | 'Á' => 'a',
            'é' | 'É' => 'e',
            'í' | 'Í' => 'i',
            'ó' | 'Ó' => 'o',
            'ú' | 'Ú' | 'ü' | 'Ü' => 'u',
            'ñ' | 'Ñ' => 'n',
            '-' | '_' | '.' => ' ',
            c if c.is_whitespace() => ' ',
            c if c.is_ascii() => c.to_ascii_lowercase(),
            _ => return None,
        };
        if mapped == ' ' {
            pending_space = len > 0;
            continue;
        }
        let needed = usize::from(pending_space) + 1;
        if len + needed > buf.len() {
            return None;
        }
        if pending_space {
            buf[len] = b' ';
            len += 1;
            pending_space = false;
        }
        buf[len] = mapped as u8;
        len += 1;
    }
    std::str::from_utf8(&buf[..len]).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_accepted_form() {
        for (i, s) in STATES.iter().enumerate() {
            let expected = State::from_inegi(i as u8 + 1);
            assert_eq!(State::parse(s.clave), expected, "{}", s.clave);
            assert_eq!(State::parse(s.iso), expected, "{}", s.iso);
            assert_eq!(State::parse(&s.iso.to_lowercase()), expected);
            assert_eq!(State::parse(&format!("MX-{}", s.iso)), expected);
            assert_eq!(State::parse(s.nombre), expected, "{}", s.nombre);
            assert_eq!(State::parse(&s.nombre.to_uppercase()), expected);
            for alias in s.aliases {
                assert_eq!(State::parse(alias), expected, "{alias}");
            }
        }
        assert_eq!(State::parse("  nuevo   LEÓN "), State::from_inegi(19));
        assert_eq!(State::parse("Estado de México"), State::from_inegi(15));
    }

    #[test]
    fn rejects_unknown_forms() {
        for bad in ["", "00", "33", "XX", "MX-", "Texas", "9", "Ciudad de Mexic", "日本"] {
            assert_eq!(State::parse(bad), None, "{bad}");
        }
    }
}
