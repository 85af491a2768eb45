//! The path of a key in a calibration document (`productos[2].tasa_anual`), written out only
//! when a fault is reported: reading the embedded document walks some two thousand keys, and
//! writing each one's path as text was a fifth of loading it.

use std::fmt;

/// A key's path: its parent's and its own name or index, borrowed from the walk that reaches
/// it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ruta<'a> {
    /// The document itself (an empty path).
    Raiz,
    /// A table's key.
    Clave(&'a Ruta<'a>, &'a str),
    /// A list's item.
    Indice(&'a Ruta<'a>, usize),
}

impl<'a> Ruta<'a> {
    /// The path of the document's top-level key `clave`.
    pub(super) fn de_raiz(clave: &'a str) -> Ruta<'a> {
        Ruta::Clave(&Ruta::Raiz, clave)
    }

    /// The path of this table's key `clave`.
    pub(super) fn clave(&'a self, clave: &'a str) -> Ruta<'a> {
        Ruta::Clave(self, clave)
    }

    /// The path of this list's item `i`.
    pub(super) fn indice(&'a self, i: usize) -> Ruta<'a> {
        Ruta::Indice(self, i)
    }
}

impl fmt::Display for Ruta<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruta::Raiz => Ok(()),
            Ruta::Clave(Ruta::Raiz, clave) => f.write_str(clave),
            Ruta::Clave(padre, clave) => write!(f, "{padre}.{clave}"),
            Ruta::Indice(padre, i) => write!(f, "{padre}[{i}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_reads_as_the_key_is_written() {
        let raiz = Ruta::Raiz;
        let productos = Ruta::de_raiz("productos");
        let segundo = productos.indice(2);
        assert_eq!(segundo.clave("tasa_anual").to_string(), "productos[2].tasa_anual");
        let puntos = raiz.clave("curvas");
        let puntos = puntos.clave("deudas");
        let puntos = puntos.clave("puntos");
        let punto = puntos.indice(3);
        assert_eq!(punto.indice(1).to_string(), "curvas.deudas.puntos[3][1]");
        assert_eq!(raiz.to_string(), "");
    }
}
