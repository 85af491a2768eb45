//! The embedded calibration's document built from the compiled constants (`params`,
//! `products::rules`, the state and transfer-tax tables), which `tests/calibration.rs` keeps
//! equal, figure by figure, to `calibration/mx-2026.toml`. `score(profile)` with no calibration
//! reads its figures from this document, so a build that never loads a calibration (the
//! WebAssembly module, with its size budget) carries no TOML reader.

use super::documento::*;
use super::valor::Valor;
use crate::curve::Curve;
use crate::params::*;
use crate::products::rules::*;
use rust_decimal::Decimal;

fn cifra(d: Decimal) -> Cifra {
    Cifra { valor: Valor(d), independiente: None, mixto: None, pensionado: None, fuente: None, estimacion: None, nota: None }
}

fn entero(n: u32) -> Cifra {
    cifra(Decimal::from(n))
}

fn curva(c: &Curve) -> Curva {
    Curva { puntos: c.points().iter().map(|&(x, y)| (Valor(x), Valor(y))).collect(), fuente: None, estimacion: None, nota: None }
}

fn producto(clave: &str, tipo: TipoProducto) -> ProductoCalibrado {
    ProductoCalibrado { clave: clave.to_owned(), nombre: clave.to_owned(), tipo, ..ProductoCalibrado::SIN_CIFRAS }
}

/// The document of the compiled figures (names and sources left out: the model reads none).
pub(crate) fn documento() -> Documento {
    let general = General {
        salario_minimo_diario: cifra(SALARIO_MINIMO_DIARIO),
        dias_por_mes: cifra(DIAS_POR_MES),
        uma_diaria: cifra(UMA_DIARIA),
        uma_vigente_desde: "2026-02-01".to_owned(),
        linea_pobreza_urbana: cifra(LINEA_POBREZA_URBANA),
        personas_hogar_default: cifra(PERSONAS_HOGAR_DEFAULT),
        factor_min: cifra(FACTOR_MIN),
        factor_max: cifra(FACTOR_MAX),
        puntos_deudas_no_declaradas: cifra(PUNTOS_DEUDAS_NO_DECLARADAS),
        proporcion_deudas_no_declaradas: cifra(PROPORCION_DEUDAS_NO_DECLARADAS),
        puntos_tipo_asalariado: cifra(PUNTOS_TIPO_ASALARIADO),
        puntos_tipo_mixto: cifra(PUNTOS_TIPO_MIXTO),
        puntos_tipo_pensionado: cifra(PUNTOS_TIPO_PENSIONADO),
        puntos_tipo_independiente: cifra(PUNTOS_TIPO_INDEPENDIENTE),
        pti_max: cifra(PTI_MAX),
        dti_total_max: cifra(DTI_TOTAL_MAX),
        rendimiento_renta_anual: cifra(RENDIMIENTO_RENTA_ANUAL),
        aportacion_fondo: cifra(APORTACION_FONDO),
        tope_sbc_umas: cifra(TOPE_SBC_UMAS),
        meses_fondo_max: cifra(MESES_FONDO_MAX),
        proporcion_salario_mixto: cifra(PROPORCION_SALARIO_MIXTO),
        m2_nucleo_base: cifra(M2_NUCLEO_BASE),
        m2_por_dormitorio_extra: cifra(M2_POR_DORMITORIO_EXTRA),
        factor_muros_circulacion: cifra(FACTOR_MUROS_CIRCULACION),
        personas_por_dormitorio: cifra(PERSONAS_POR_DORMITORIO),
        umbral_m2_adecuado: cifra(UMBRAL_M2_ADECUADO),
        umbral_m2_holgado: cifra(UMBRAL_M2_HOLGADO),
        umbral_enganche_parcial: cifra(UMBRAL_ENGANCHE_PARCIAL),
        umbral_recomendacion: cifra(UMBRAL_RECOMENDACION),
        max_recomendaciones_componente: cifra(MAX_RECOMENDACIONES_COMPONENTE),
    };
    let curvas = Curvas {
        ingreso: curva(&CURVA_INGRESO),
        antiguedad_asalariado: curva(&CURVA_ANTIGUEDAD_ASALARIADO),
        antiguedad_independiente: curva(&CURVA_ANTIGUEDAD_INDEPENDIENTE),
        deudas: curva(&CURVA_DEUDAS),
        ahorro: curva(&CURVA_AHORRO),
        ahorro_cobertura: curva(&CURVA_AHORRO_COBERTURA),
        salud_financiera: curva(&CURVA_SALUD_FINANCIERA),
    };
    // The two insurances of the document add up to the calibrated monthly load.
    let danos = Decimal::new(39, 5);
    let productos = vec![
        ProductoCalibrado {
            tasa_por_umas: Some(curva(&INFONAVIT_TASA_POR_UMAS)),
            cargo_mensual: Some(cifra(INFONAVIT_CARGO_MENSUAL)),
            pago_por_umas: Some(curva(&INFONAVIT_PAGO_POR_UMAS)),
            plazo_max_anios: Some(entero(INFONAVIT_PLAZO_MAX)),
            edad_mas_plazo_max: Some(entero(INFONAVIT_EDAD_MAX_FIN_PLAZO)),
            antiguedad_min_meses: Some(entero(INFONAVIT_ANTIGUEDAD_MIN)),
            credito_max_umas: Some(cifra(INFONAVIT_CREDITO_MAX_UMAS)),
            ..producto("INFONAVIT", TipoProducto::Infonavit)
        },
        ProductoCalibrado {
            tasa_anual: Some(cifra(FOVISSSTE_TASA)),
            cargo_mensual: Some(cifra(FOVISSSTE_CARGO_MENSUAL)),
            pago_max_sobre_ingreso: Some(cifra(FOVISSSTE_PTI)),
            plazo_max_anios: Some(entero(FOVISSSTE_PLAZO_MAX)),
            edad_mas_plazo_max: Some(entero(FOVISSSTE_EDAD_MAX_FIN_PLAZO)),
            antiguedad_min_meses: Some(entero(FOVISSSTE_ANTIGUEDAD_MIN)),
            credito_max: Some(cifra(FOVISSSTE_CREDITO_MAX)),
            ..producto("FOVISSSTE", TipoProducto::Fovissste)
        },
        ProductoCalibrado {
            tasa_anual: Some(cifra(TASA_ANUAL)),
            comision_apertura: Some(cifra(BANCO_COMISION_APERTURA)),
            seguro_vida_mensual: Some(cifra(BANCO_SEGUROS_MENSUAL - danos)),
            seguro_danos_mensual: Some(cifra(danos)),
            ltv_max: Some(Cifra { independiente: Some(Valor(LTV_INDEPENDIENTE)), ..cifra(LTV_ASALARIADO) }),
            pago_max_sobre_ingreso: Some(cifra(PTI_MAX)),
            plazo_max_anios: Some(cifra(PLAZO_MAX_ANIOS)),
            edad_mas_plazo_max: Some(cifra(EDAD_MAX_FIN_PLAZO)),
            antiguedad_min_meses: Some(Cifra {
                independiente: Some(Valor(Decimal::from(BANCO_ANTIGUEDAD_MIN_INDEPENDIENTE))),
                ..entero(BANCO_ANTIGUEDAD_MIN_ASALARIADO)
            }),
            credito_min: Some(cifra(BANCO_CREDITO_MIN)),
            ..producto("HIPOTECA_BANCARIA", TipoProducto::Bancario)
        },
        ProductoCalibrado {
            banco: Some("HIPOTECA_BANCARIA".to_owned()),
            parte_infonavit: Some(cifra(COFI_PARTE_INFONAVIT)),
            tasa_anual: Some(cifra(COFI_TASA_INFONAVIT)),
            credito_max: Some(cifra(COFI_INFONAVIT_MAX)),
            ..producto("INFONAVIT_MAS_BANCO", TipoProducto::InfonavitMasBanco)
        },
        ProductoCalibrado { credito_max: Some(cifra(UNAMOS_CREDITO_MAX)), ..producto("UNAMOS_CREDITOS", TipoProducto::UnamosCreditos) },
    ];
    let estados = crate::states::STATES
        .iter()
        .zip(crate::products::ISAI)
        .map(|(s, (isai, _))| EstadoCalibrado { clave: s.clave.to_owned(), factor: cifra(s.factor), precio_m2: cifra(s.precio_m2), isai: cifra(isai) })
        .collect();
    Documento {
        id: crate::CALIBRATION.to_owned(),
        vigente_desde: "2026-02-01".to_owned(),
        descripcion: None,
        general,
        curvas,
        gastos_cierre: GastosCierre { notario: cifra(NOTARIO), registro: cifra(REGISTRO), avaluo: cifra(AVALUO) },
        productos,
        estados,
        fuentes: std::collections::BTreeMap::new(),
    }
}

#[cfg(test)]
mod tests {
    /// The compiled document holds the embedded TOML's figures, path by path and value by value.
    #[test]
    fn the_compiled_document_is_the_embedded_one() {
        let compilada = super::super::cifras::de(&super::documento());
        let incluida = crate::Calibration::from_toml(super::super::EMBEDDED_TOML).expect("valid").cifras();
        assert_eq!(compilada, incluida);
        let doc = super::documento();
        assert_eq!(doc.id, crate::Calibration::default().id());
    }
}
