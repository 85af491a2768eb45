//! The keys of the report, object by object in the walk's order. A key that appears in two
//! objects (`score`, `credito_max`) has one constant per object; a key of an object that
//! repeats (`valor` of each component) has one constant for every repetition.
//!
use std::fmt;

/// A key of the report: a fixed place in its tree, a reference to its [`KeyInfo`] (one word:
/// every value of the walk carries its key, so a key is as cheap to pass as a pointer). Two
/// keys are equal when their `id` is (the rest follows from it), which sinks compare on every
/// value without touching the texts.
#[derive(Clone, Copy)]
pub struct Key(&'static KeyInfo);

impl std::ops::Deref for Key {
    type Target = KeyInfo;

    #[inline(always)]
    fn deref(&self) -> &KeyInfo {
        self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({})", self.name)
    }
}

/// What a [`Key`] names.
#[derive(Debug)]
pub struct KeyInfo {
    /// Dense index in [`KEYS`]: a binding keeps its host string for the key at this index.
    pub id: usize,
    /// The key as written (snake_case).
    pub name: &'static str,
    /// True for the first key of its object (JSON writes no comma before it).
    pub first: bool,
    /// `,"name":`, the JSON before the value.
    json: &'static str,
}

impl PartialEq for Key {
    #[inline(always)]
    fn eq(&self, other: &Key) -> bool {
        self.id == other.id
    }
}

impl Eq for Key {}

impl KeyInfo {
    /// The JSON text before this key's value: `"name":`, with a comma unless the key is first.
    #[inline(always)]
    pub fn json_prefix(&self) -> &'static str {
        // `json` is `,"name":`: skipping its one-byte comma keeps a char boundary.
        &self.json[usize::from(self.first)..]
    }
}

macro_rules! define_keys {
    ($( $(#[$doc:meta])* $konst:ident = $name:literal $(, $first:ident)? ; )*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        enum Id { $($konst),* }

        $(
            $(#[$doc])*
            pub const $konst: Key = Key(&KeyInfo {
                id: Id::$konst as usize,
                name: $name,
                first: define_keys!(@first $($first)?),
                json: concat!(",\"", $name, "\":"),
            });
        )*

        /// Every key, by [`Key::id`]: object by object, each object's keys in their order.
        pub const KEYS: &[Key] = &[$($konst),*];
    };
    (@first first) => { true };
    (@first) => { false };
}

define_keys! {
    // The report (`platform_score`).
    SCORE = "score", first;
    NIVEL = "nivel";
    CAPACIDAD_COMPRA_ESTIMADA = "capacidad_compra_estimada";
    SALUD_FINANCIERA = "salud_financiera";
    RECOMENDACIONES = "recomendaciones";
    DISCLAIMER = "disclaimer";
    VALOR_VIVIENDA_MAX = "valor_vivienda_max";
    CREDITO_MAX = "credito_max";
    ENGANCHE_MIN = "enganche_min";
    PAGO_MENSUAL_ESTIMADO = "pago_mensual_estimado";
    RENTA_ESTIMADA = "renta_estimada";
    MODELO_VERSION = "modelo_version";
    CALIBRACION = "calibracion";
    ESTADO = "estado";
    COMPONENTES = "componentes";
    RECOMENDACIONES_DETALLE = "recomendaciones_detalle";
    DICTAMEN = "dictamen";
    SIMULACIONES = "simulaciones";
    PRODUCTOS = "productos";
    PRODUCTO_RECOMENDADO = "producto_recomendado";
    // capacidad_compra_estimada
    CC_VALOR_BANCARIO = "valor_bancario", first;
    CC_VALOR_REALISTA = "valor_realista";
    CC_FACTOR_PLATFORM_V2 = "factor_platform_v2";
    CC_LTV = "ltv";
    CC_PAGO_MENSUAL_ESTIMADO = "pago_mensual_estimado";
    CC_CREDITO_MAX = "credito_max";
    CC_M2_ALCANZABLES = "m2_alcanzables";
    CC_M2_MINIMO_NUCLEO = "m2_minimo_nucleo";
    CC_EVALUACION_M2 = "evaluacion_m2";
    CC_ENGANCHE_REQUERIDO = "enganche_requerido";
    CC_ENGANCHE_DISPONIBLE = "enganche_disponible";
    CC_SUBCUENTA_FONDO_ESTIMADA = "subcuenta_fondo_estimada";
    CC_ESTATUS_ENGANCHE = "estatus_enganche";
    CC_RENTA_EQUIVALENTE = "renta_equivalente";
    CC_GASTOS_CIERRE_ESTIMADOS = "gastos_cierre_estimados";
    CC_TASA_ANUAL = "tasa_anual";
    CC_PLAZO_ANIOS = "plazo_anios";
    CC_PRECIO_M2_ESTADO = "precio_m2_estado";
    // salud_financiera
    SF_SCORE = "score", first;
    SF_COSTO_VIDA_DIGNO = "costo_vida_digno";
    SF_INGRESO_DISPONIBLE = "ingreso_disponible";
    SF_RATIO = "ratio";
    // estado
    ES_CLAVE = "clave", first;
    ES_CODIGO = "codigo";
    ES_NOMBRE = "nombre";
    // componentes
    CO_INGRESO = "ingreso", first;
    CO_TIPO_INGRESO = "tipo_ingreso";
    CO_ANTIGUEDAD = "antiguedad";
    CO_DEUDAS = "deudas";
    CO_AHORRO = "ahorro";
    CO_SALUD_FINANCIERA = "salud_financiera";
    // each componente
    CP_VALOR = "valor", first;
    CP_PESO = "peso";
    CP_PUNTOS = "puntos";
    // each item of recomendaciones_detalle
    RD_CODIGO = "codigo", first;
    RD_TEXTO = "texto";
    // dictamen
    DI_PRECALIFICA = "precalifica", first;
    DI_CONDICION = "condicion";
    DI_MOTIVOS = "motivos";
    // each item of dictamen.motivos
    DM_CODIGO = "codigo", first;
    DM_TEXTO = "texto";
    // each item of simulaciones
    SI_ACCION = "accion", first;
    SI_DESCRIPCION = "descripcion";
    SI_CAMBIOS = "cambios";
    SI_SCORE = "score";
    SI_NIVEL = "nivel";
    SI_CREDITO_MAX = "credito_max";
    SI_MESES_PARA_SIGUIENTE_NIVEL = "meses_para_siguiente_nivel";
    // each item of a simulation's cambios
    CA_CAMPO = "campo", first;
    CA_ANTES = "antes";
    CA_DESPUES = "despues";
    // each item of productos
    PR_PRODUCTO = "producto", first;
    PR_ELEGIBLE = "elegible";
    PR_TASA_ANUAL = "tasa_anual";
    PR_CAT = "cat";
    PR_PLAZO_ANIOS = "plazo_anios";
    PR_PAGO_MENSUAL = "pago_mensual";
    PR_CREDITO_MAX = "credito_max";
    PR_VALOR_VIVIENDA_MAX = "valor_vivienda_max";
    PR_ENGANCHE_REQUERIDO = "enganche_requerido";
    PR_GASTOS_CIERRE = "gastos_cierre";
    PR_TOTAL_PAGADO = "total_pagado";
    PR_MOTIVOS = "motivos";
}
