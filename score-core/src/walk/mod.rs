//! The report's shape, defined once: [`ScoreReport::walk`] visits every key of the report in
//! its documented order and hands each value, typed, to a [`ReportSink`].
//!
//! Every writer of a report is a sink: the JSON text ([`crate::ScoreReport::write_json`]), the
//! Python dict, the JavaScript object, the columns of a batch, the JSON Schema and the type
//! stubs. Adding a key to the report is one line in [`keys`] and one call in the walk; each
//! consumer then follows without an edit (the schema and stub tests fail until the generated
//! files are refreshed).
//!
//! The walk is statically dispatched and inlined into each sink, so a key's [`Key`] (a
//! constant) and whether it opens its object fold away: the JSON sink writes the same byte
//! literals a hand-written writer would.

use crate::products::{Clave, Motivo as MotivoProducto, OfertaProducto, Producto};
use crate::profile::IncomeType;
use crate::report::score_report::ScoreReport;
use crate::report::simulacion::{AccionSimulacion, CampoSimulado, ValorCampo};
use crate::report::{
    CodigoDictamen, CodigoRecomendacion, Componente, Condicion, EstatusEnganche, EvaluacionM2, MotivoDictamen, Nivel,
    Recomendacion, Text,
};
use rust_decimal::Decimal;

pub mod keys;

pub use keys::{KEYS, Key, KeyInfo};

/// Where a value goes: the root object, a key of an object, or an item of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The report object itself.
    Root,
    /// The value of a key of the enclosing object.
    Key(Key),
    /// Item `index` of the enclosing array (texts of `recomendaciones`, objects of
    /// `recomendaciones_detalle`).
    Item(usize),
}

/// A value of a closed set of wire names (the report's enums: `nivel`, `evaluacion_m2`,
/// `estatus_enganche`, a recommendation's `codigo`). `all[index]` is the value, so a binding
/// can keep one host string per name, and the schema lists `all` as the key's `enum`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    /// Every name of the set, in declaration order.
    pub all: &'static [&'static str],
    /// The position of this value in `all`.
    pub index: usize,
}

impl Label {
    /// The wire name.
    #[inline(always)]
    pub fn as_str(self) -> &'static str {
        self.all[self.index]
    }
}

/// What receives a report, value by value, from [`ScoreReport::walk`].
///
/// Calls nest as the JSON does: `begin_object(Slot::Root)`, then for each key one value call
/// (or a `begin_*`/`end_*` pair around the values of a nested object or array), then
/// `end_object()`. Methods take `&mut self` and return nothing: a sink that can fail keeps its
/// first error and checks it after the walk.
pub trait ReportSink {
    /// An object opens at `at`; its keys follow.
    fn begin_object(&mut self, at: Slot);
    /// The innermost open object closes.
    fn end_object(&mut self);
    /// An array of `len` items opens at `at`; its items follow with `Slot::Item`.
    fn begin_array(&mut self, at: Slot, len: usize);
    /// The innermost open array closes.
    fn end_array(&mut self);
    /// A whole number (`score`, `plazo_anios`).
    fn integer(&mut self, at: Slot, value: u64);
    /// A yes or no (`dictamen.precalifica`).
    fn boolean(&mut self, at: Slot, value: bool);
    /// A shown figure (amount, ratio, factor, component value): written as a JSON number, an
    /// integer when whole (see [`crate::money::number`]).
    fn decimal(&mut self, at: Slot, value: Decimal);
    /// One name of a closed set (an enum's wire name).
    fn label(&mut self, at: Slot, value: Label);
    /// No value: JSON `null` (a simulation's `antes` of a field the profile leaves out, a
    /// `meses_para_siguiente_nivel` that does not apply). The walk reaches it only through the
    /// `_or_null` methods and [`ReportSink::valor_campo`].
    fn null(&mut self, at: Slot);
    /// A whole number or `null`. A sink that records types (the schema) overrides it to mark
    /// the key nullable whatever this report holds.
    #[inline(always)]
    fn integer_or_null(&mut self, at: Slot, value: Option<u64>) {
        match value {
            Some(v) => self.integer(at, v),
            None => self.null(at),
        }
    }
    /// A shown figure or `null` (see [`ReportSink::integer_or_null`]).
    #[inline(always)]
    fn decimal_or_null(&mut self, at: Slot, value: Option<Decimal>) {
        match value {
            Some(v) => self.decimal(at, v),
            None => self.null(at),
        }
    }
    /// A name of a closed set or `null` (see [`ReportSink::integer_or_null`]).
    #[inline(always)]
    fn label_or_null(&mut self, at: Slot, value: Option<Label>) {
        match value {
            Some(v) => self.label(at, v),
            None => self.null(at),
        }
    }
    /// A simulated profile field's value (`cambios[].antes`, `despues`): a figure, an income
    /// type's name or `null` (see [`ReportSink::integer_or_null`]). A sink whose reader cannot
    /// tell a figure from a name by its slot (the flat values of the JavaScript bindings)
    /// overrides it to say which.
    #[inline(always)]
    fn valor_campo(&mut self, at: Slot, value: Option<ValorCampo>) {
        match value {
            Some(ValorCampo::Numero(v)) => self.decimal(at, v),
            Some(ValorCampo::TipoIngreso(t)) => self.label(at, tipo_ingreso(t)),
            None => self.null(at),
        }
    }
    /// A product's `clave` (`producto`, `producto_recomendado`): a code the calibration names,
    /// so an open set. A built-in product's code is a static text; another, an owned one.
    #[inline(always)]
    fn clave(&mut self, at: Slot, value: &Clave) {
        let text: Text = match Producto::de_clave(value.as_str()) {
            Some(p) => Text::Borrowed(p.as_str()),
            None => Text::Owned(value.as_str().to_owned()),
        };
        self.text(at, &text);
    }
    /// A product's `clave` or `null` (see [`ReportSink::integer_or_null`]).
    #[inline(always)]
    fn clave_or_null(&mut self, at: Slot, value: Option<&Clave>) {
        match value {
            Some(v) => self.clave(at, v),
            None => self.null(at),
        }
    }
    /// A Spanish text. A `Cow::Borrowed` text is one of the model's [`static_texts`], so a
    /// binding can keep its host string in a cache keyed by the text's address and length
    /// (no hashing of content). Rust does not promise one address per constant text, so such
    /// a cache fills lazily and may hold a text twice; it stays within a few hundred entries.
    fn text(&mut self, at: Slot, value: &Text);
    /// Whether the sink needs nothing more of this report. The walk asks between groups of
    /// the report's own keys and then stops without closing the report's object: a sink that
    /// wants one key's value (a lazy binding's `report["score"]`) is done once it has it.
    #[inline(always)]
    fn finished(&self) -> bool {
        false
    }
}

/// The wire names of `nivel`.
pub const NIVEL_NAMES: [&str; 4] = [
    Nivel::Bajo.as_str(),
    Nivel::Medio.as_str(),
    Nivel::Alto.as_str(),
    Nivel::Excelente.as_str(),
];
/// The wire names of `evaluacion_m2`.
pub const EVALUACION_M2_NAMES: [&str; 4] = [
    EvaluacionM2::Insuficiente.as_str(),
    EvaluacionM2::NucleoBasico.as_str(),
    EvaluacionM2::Adecuado.as_str(),
    EvaluacionM2::Holgado.as_str(),
];
/// The wire names of `estatus_enganche`.
pub const ESTATUS_ENGANCHE_NAMES: [&str; 6] = [
    EstatusEnganche::NoAplica.as_str(),
    EstatusEnganche::SinEnganche.as_str(),
    EstatusEnganche::Insuficiente.as_str(),
    EstatusEnganche::Parcial.as_str(),
    EstatusEnganche::CubiertoSinGastos.as_str(),
    EstatusEnganche::Cubierto.as_str(),
];
/// The wire names of an enum with `ALL` and a `const fn as_str`, in `ALL`'s order (a `const`
/// loop: `const` code cannot call `map`).
macro_rules! wire_names {
    ($t:ty) => {{
        let mut names = [""; <$t>::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = <$t>::ALL[i].as_str();
            i += 1;
        }
        names
    }};
}

/// The wire names of a recommendation's `codigo`, in [`CodigoRecomendacion::ALL`] order.
pub const CODIGO_NAMES: [&str; CodigoRecomendacion::ALL.len()] = wire_names!(CodigoRecomendacion);

/// The wire names of `dictamen.condicion`.
pub const CONDICION_NAMES: [&str; 3] =
    [Condicion::Precalifica.as_str(), Condicion::Condicionado.as_str(), Condicion::NoPrecalifica.as_str()];
/// The wire names of a verdict reason's `codigo`, in [`CodigoDictamen::ALL`] order.
pub const CODIGO_DICTAMEN_NAMES: [&str; CodigoDictamen::ALL.len()] = wire_names!(CodigoDictamen);

/// The wire names of a simulation's `accion`, in [`AccionSimulacion::ALL`] order.
pub const ACCION_NAMES: [&str; AccionSimulacion::ALL.len()] = wire_names!(AccionSimulacion);
/// The profile keys a simulation's `cambios[].campo` names, in [`CampoSimulado::ALL`] order.
pub const CAMPO_NAMES: [&str; CampoSimulado::ALL.len()] = wire_names!(CampoSimulado);
/// The wire names of an income type, in [`IncomeType::ALL`] order (a simulated co-borrower's
/// `tipo_ingreso` in `cambios`).
pub const TIPO_INGRESO_NAMES: [&str; IncomeType::ALL.len()] = wire_names!(IncomeType);

/// The wire names of a product's `motivos`, in [`MotivoProducto::ALL`] order.
pub const MOTIVO_PRODUCTO_NAMES: [&str; MotivoProducto::ALL.len()] = wire_names!(MotivoProducto);

#[inline(always)]
const fn motivo_producto(m: MotivoProducto) -> Label {
    Label { all: &MOTIVO_PRODUCTO_NAMES, index: m as usize }
}

#[inline(always)]
const fn accion(a: AccionSimulacion) -> Label {
    Label { all: &ACCION_NAMES, index: a as usize }
}
#[inline(always)]
const fn campo(c: CampoSimulado) -> Label {
    Label { all: &CAMPO_NAMES, index: c as usize }
}
/// The label of an income type.
#[inline(always)]
const fn tipo_ingreso(t: IncomeType) -> Label {
    Label { all: &TIPO_INGRESO_NAMES, index: t as usize }
}
#[inline(always)]
const fn nivel(n: Nivel) -> Label {
    Label { all: &NIVEL_NAMES, index: n as usize }
}
#[inline(always)]
const fn evaluacion(e: EvaluacionM2) -> Label {
    Label { all: &EVALUACION_M2_NAMES, index: e as usize }
}
#[inline(always)]
const fn estatus(e: EstatusEnganche) -> Label {
    Label { all: &ESTATUS_ENGANCHE_NAMES, index: e as usize }
}
#[inline(always)]
const fn codigo(c: CodigoRecomendacion) -> Label {
    Label { all: &CODIGO_NAMES, index: c as usize }
}
#[inline(always)]
const fn condicion(c: Condicion) -> Label {
    Label { all: &CONDICION_NAMES, index: c as usize }
}
#[inline(always)]
const fn codigo_dictamen(c: CodigoDictamen) -> Label {
    Label { all: &CODIGO_DICTAMEN_NAMES, index: c as usize }
}

/// Every `&'static` text a report can carry: the disclaimer, the model version, the
/// calibration, each recommendation's text (in [`CodigoRecomendacion::ALL`] order), each
/// verdict reason's text (in [`CodigoDictamen::ALL`] order), each simulation's description
/// (in [`AccionSimulacion::ALL`] order) and each state's clave, code and
/// name (in INEGI order): every `Cow::Borrowed` text of a report has one of these contents. A
/// binding may turn them into host strings up front.
pub fn static_texts() -> Vec<&'static str> {
    let mut texts = vec![crate::DISCLAIMER, crate::MODEL_VERSION, crate::CALIBRATION];
    texts.extend(CodigoRecomendacion::ALL.iter().map(|c| crate::recommendation_text(*c)));
    texts.extend(CodigoDictamen::ALL.iter().map(|c| crate::verdict_text(*c)));
    texts.extend(AccionSimulacion::ALL.iter().map(|a| a.descripcion()));
    // A built-in product's `clave` (`ReportSink::clave`).
    texts.extend(Producto::ALL.map(Producto::as_str));
    for state in &crate::states::STATES {
        texts.extend([state.clave, state.iso, state.nombre]);
    }
    texts
}

impl ScoreReport {
    /// Hands every value of the report to `sink`, key by key in the documented order: the one
    /// definition of the report's keys, order and types.
    #[inline(always)]
    pub fn walk<S: ReportSink>(&self, sink: &mut S) {
        use keys::*;
        let s = sink;
        let k = |key: Key| Slot::Key(key);
        s.begin_object(Slot::Root);
        s.integer(k(SCORE), u64::from(self.score));
        s.label(k(NIVEL), nivel(self.nivel));
        if s.finished() {
            return;
        }

        let c = &self.capacidad_compra_estimada;
        s.begin_object(k(CAPACIDAD_COMPRA_ESTIMADA));
        s.decimal(k(CC_VALOR_BANCARIO), c.valor_bancario);
        s.decimal(k(CC_VALOR_REALISTA), c.valor_realista);
        s.decimal(k(CC_FACTOR_PLATFORM_V2), c.factor_platform_v2);
        s.decimal(k(CC_LTV), c.ltv);
        s.decimal(k(CC_PAGO_MENSUAL_ESTIMADO), c.pago_mensual_estimado);
        s.decimal(k(CC_CREDITO_MAX), c.credito_max);
        s.decimal(k(CC_M2_ALCANZABLES), c.m2_alcanzables);
        s.decimal(k(CC_M2_MINIMO_NUCLEO), c.m2_minimo_nucleo);
        s.label(k(CC_EVALUACION_M2), evaluacion(c.evaluacion_m2));
        s.decimal(k(CC_ENGANCHE_REQUERIDO), c.enganche_requerido);
        s.decimal(k(CC_ENGANCHE_DISPONIBLE), c.enganche_disponible);
        s.decimal(k(CC_SUBCUENTA_FONDO_ESTIMADA), c.subcuenta_fondo_estimada);
        s.label(k(CC_ESTATUS_ENGANCHE), estatus(c.estatus_enganche));
        s.decimal(k(CC_RENTA_EQUIVALENTE), c.renta_equivalente);
        s.decimal(k(CC_GASTOS_CIERRE_ESTIMADOS), c.gastos_cierre_estimados);
        s.decimal(k(CC_TASA_ANUAL), c.tasa_anual);
        s.integer(k(CC_PLAZO_ANIOS), u64::from(c.plazo_anios));
        s.decimal(k(CC_PRECIO_M2_ESTADO), c.precio_m2_estado);
        s.end_object();
        if s.finished() {
            return;
        }

        let f = &self.salud_financiera;
        s.begin_object(k(SALUD_FINANCIERA));
        s.decimal(k(SF_SCORE), f.score);
        s.decimal(k(SF_COSTO_VIDA_DIGNO), f.costo_vida_digno);
        s.decimal(k(SF_INGRESO_DISPONIBLE), f.ingreso_disponible);
        s.decimal(k(SF_RATIO), f.ratio);
        s.end_object();
        if s.finished() {
            return;
        }

        s.begin_array(k(RECOMENDACIONES), self.recomendaciones.len());
        for (i, text) in self.recomendaciones.iter().enumerate() {
            s.text(Slot::Item(i), text);
        }
        s.end_array();
        if s.finished() {
            return;
        }
        s.text(k(DISCLAIMER), &self.disclaimer);
        s.decimal(k(VALOR_VIVIENDA_MAX), self.valor_vivienda_max);
        s.decimal(k(CREDITO_MAX), self.credito_max);
        s.decimal(k(ENGANCHE_MIN), self.enganche_min);
        s.decimal(k(PAGO_MENSUAL_ESTIMADO), self.pago_mensual_estimado);
        s.decimal(k(RENTA_ESTIMADA), self.renta_estimada);
        s.text(k(MODELO_VERSION), &self.modelo_version);
        s.text(k(CALIBRACION), &self.calibracion);
        if s.finished() {
            return;
        }

        let e = &self.estado;
        s.begin_object(k(ESTADO));
        s.text(k(ES_CLAVE), &e.clave);
        s.text(k(ES_CODIGO), &e.codigo);
        s.text(k(ES_NOMBRE), &e.nombre);
        s.end_object();
        if s.finished() {
            return;
        }

        let co = &self.componentes;
        s.begin_object(k(COMPONENTES));
        componente(s, CO_INGRESO, &co.ingreso);
        componente(s, CO_TIPO_INGRESO, &co.tipo_ingreso);
        componente(s, CO_ANTIGUEDAD, &co.antiguedad);
        componente(s, CO_DEUDAS, &co.deudas);
        componente(s, CO_AHORRO, &co.ahorro);
        componente(s, CO_SALUD_FINANCIERA, &co.salud_financiera);
        s.end_object();
        if s.finished() {
            return;
        }

        s.begin_array(k(RECOMENDACIONES_DETALLE), self.recomendaciones_detalle.len());
        for (i, Recomendacion { codigo: c, texto }) in self.recomendaciones_detalle.iter().enumerate() {
            s.begin_object(Slot::Item(i));
            s.label(k(RD_CODIGO), codigo(*c));
            s.text(k(RD_TEXTO), texto);
            s.end_object();
        }
        s.end_array();
        if s.finished() {
            return;
        }

        let d = &self.dictamen;
        s.begin_object(k(DICTAMEN));
        s.boolean(k(DI_PRECALIFICA), d.precalifica);
        s.label(k(DI_CONDICION), condicion(d.condicion));
        s.begin_array(k(DI_MOTIVOS), d.motivos.len());
        for (i, MotivoDictamen { codigo: c, texto }) in d.motivos.iter().enumerate() {
            s.begin_object(Slot::Item(i));
            s.label(k(DM_CODIGO), codigo_dictamen(*c));
            s.text(k(DM_TEXTO), texto);
            s.end_object();
        }
        s.end_array();
        s.end_object();
        if s.finished() {
            return;
        }

        s.begin_array(k(SIMULACIONES), self.simulaciones.len());
        for (i, si) in self.simulaciones.iter().enumerate() {
            s.begin_object(Slot::Item(i));
            s.label(k(SI_ACCION), accion(si.accion));
            s.text(k(SI_DESCRIPCION), &si.descripcion);
            s.begin_array(k(SI_CAMBIOS), si.cambios.len());
            for (j, ca) in si.cambios.iter().enumerate() {
                s.begin_object(Slot::Item(j));
                s.label(k(CA_CAMPO), campo(ca.campo));
                s.valor_campo(k(CA_ANTES), ca.antes);
                s.valor_campo(k(CA_DESPUES), ca.despues);
                s.end_object();
            }
            s.end_array();
            s.integer(k(SI_SCORE), u64::from(si.score));
            s.label(k(SI_NIVEL), nivel(si.nivel));
            s.decimal(k(SI_CREDITO_MAX), si.credito_max);
            s.integer_or_null(k(SI_MESES_PARA_SIGUIENTE_NIVEL), si.meses_para_siguiente_nivel.map(u64::from));
            s.end_object();
        }
        s.end_array();
        if s.finished() {
            return;
        }

        s.begin_array(k(PRODUCTOS), self.productos.len());
        for (i, o) in self.productos.iter().enumerate() {
            oferta(s, i, o);
        }
        s.end_array();
        s.clave_or_null(k(PRODUCTO_RECOMENDADO), self.producto_recomendado.as_ref());
        s.end_object();
    }
}

#[inline(always)]
fn oferta<S: ReportSink>(s: &mut S, i: usize, o: &OfertaProducto) {
    use keys::*;
    let k = |key: Key| Slot::Key(key);
    s.begin_object(Slot::Item(i));
    s.clave(k(PR_PRODUCTO), &o.producto);
    s.boolean(k(PR_ELEGIBLE), o.elegible);
    s.decimal(k(PR_TASA_ANUAL), o.tasa_anual);
    s.decimal_or_null(k(PR_CAT), o.cat);
    s.integer(k(PR_PLAZO_ANIOS), u64::from(o.plazo_anios));
    s.decimal(k(PR_PAGO_MENSUAL), o.pago_mensual);
    s.decimal(k(PR_CREDITO_MAX), o.credito_max);
    s.decimal(k(PR_VALOR_VIVIENDA_MAX), o.valor_vivienda_max);
    s.decimal(k(PR_ENGANCHE_REQUERIDO), o.enganche_requerido);
    s.decimal(k(PR_GASTOS_CIERRE), o.gastos_cierre);
    s.decimal(k(PR_TOTAL_PAGADO), o.total_pagado);
    s.begin_array(k(PR_MOTIVOS), o.motivos.len());
    for (j, m) in o.motivos.iter().enumerate() {
        s.label(Slot::Item(j), motivo_producto(*m));
    }
    s.end_array();
    s.end_object();
}

#[inline(always)]
fn componente<S: ReportSink>(s: &mut S, key: Key, c: &Componente) {
    s.begin_object(Slot::Key(key));
    s.decimal(Slot::Key(keys::CP_VALOR), c.valor);
    s.decimal(Slot::Key(keys::CP_PESO), c.peso);
    s.decimal(Slot::Key(keys::CP_PUNTOS), c.puntos);
    s.end_object();
}

#[cfg(test)]
mod tests;
