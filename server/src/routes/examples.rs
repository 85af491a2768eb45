//! The examples of the OpenAPI document: one working request body per operation (what
//! "Try it out" in `/docs` sends) and the real shapes of the score report. `tests/api/openapi.rs`
//! sends every request example to its operation and expects the documented success status, so
//! an example that stops working fails the build. Ids of other objects (`propiedad_id`,
//! `agencyId`, `userId`) and one-time tokens are placeholders the caller replaces.

use serde_json::{Value, json};

use crate::domain::buyers;

/// A placeholder id of another object (replace it with a real one).
const SOME_ID: &str = "5b0c8f3e-2a4d-4e71-9c36-0f1e2d3c4b5a";

/// The profile of the stateless calculator (no contact fields: it stores nothing).
pub fn score_profile() -> Value {
    serde_json::from_str(buyers::EXAMPLE_PROFILE).unwrap_or(Value::Null)
}

/// A batch of the calculator: two profiles, the second with an error reported in place.
pub fn score_batch() -> Value {
    let mut second = score_profile();
    second["estado"] = json!("Atlantis");
    json!({"perfiles": [score_profile(), second]})
}

/// Phase 1 and onboarding: the profile with the optional contact fields.
pub fn profile_with_contact() -> Value {
    let mut v = score_profile();
    v["nombre"] = json!("Ana García");
    v["email"] = json!("ana.garcia@example.com");
    v["telefono"] = json!("+52 33 1234 5678");
    v
}

/// Phase 2: any subset of the profile.
pub fn profile_changes() -> Value {
    json!({"ingreso_mensual": 45000, "ahorro": 180000, "deudas_mensuales": null})
}

/// Phase 3.
pub fn interest() -> Value {
    json!({
        "propiedad_id": SOME_ID,
        "mensaje": "Me interesa visitarla este fin de semana.",
        "preferencia_contacto": "email"
    })
}

pub fn create_api_key() -> Value {
    json!({"name": "Portal Casas del Norte", "rateLimitPerMinute": 6000})
}

pub fn register() -> Value {
    json!({
        "firstName": "Ana",
        "lastName": "García",
        "email": "ana.garcia@example.com",
        "password": "una contraseña larga 2026",
        "phone": "+52 33 1234 5678",
        "role": "comprador",
        "acceptedTerms": true
    })
}

pub fn login() -> Value {
    json!({"email": "ana.garcia@example.com", "password": "una contraseña larga 2026"})
}

pub fn profile_update() -> Value {
    json!({"firstName": "Ana", "lastName": "García López", "phone": "+52 33 1234 5678", "companyName": "Inmobiliaria Norte"})
}

pub fn email() -> Value {
    json!({"email": "ana.garcia@example.com"})
}

pub fn reset_password() -> Value {
    json!({"token": "token-del-correo-de-restablecimiento", "password": "otra contraseña larga 2026"})
}

pub fn idp_exchange() -> Value {
    json!({"code": "codigo-de-un-solo-uso-del-callback"})
}

pub fn create_agency() -> Value {
    json!({"name": "Inmobiliaria Norte", "city": "Monterrey", "logo": "https://example.com/logo.png"})
}

pub fn update_agency() -> Value {
    json!({"name": "Inmobiliaria Norte y Sur", "city": "San Pedro Garza García"})
}

pub fn add_admin() -> Value {
    json!({"userId": SOME_ID})
}

pub fn create_agent() -> Value {
    json!({
        "firstName": "María",
        "lastName": "López",
        "email": "maria.lopez@example.com",
        "password": "contraseña del agente 2026",
        "phone": "+52 81 5555 1234",
        "city": "Monterrey",
        "category": "Residencial",
        "company": "Inmobiliaria Norte",
        "bio": "Especialista en vivienda económica y media en el área metropolitana.",
        "memberSince": "2015-03-01",
        "mobilePhone": "+52 81 5555 1234"
    })
}

pub fn update_agent() -> Value {
    json!({"city": "Guadalajara", "bio": "Vivienda media y residencial en Zapopan.", "website": "https://example.com/maria"})
}

pub fn assign_agency() -> Value {
    json!({"agencyId": SOME_ID})
}

pub fn review() -> Value {
    json!({"rating": 5, "comment": "Muy atenta y clara con los trámites del crédito."})
}

pub fn create_property() -> Value {
    json!({
        "title": "Casa en Cumbres",
        "operation": "sale",
        "price": 1850000,
        "estado": "Nuevo León",
        "city": "Monterrey",
        "m2": 120,
        "bedrooms": 3,
        "bathrooms": 2,
        "description": "Dos plantas, cochera para dos autos, cerca de escuelas.",
        "images": ["https://example.com/casa-cumbres-1.jpg"]
    })
}

pub fn update_property() -> Value {
    json!({"price": 1790000, "description": "Precio actualizado; lista para habitar."})
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_report_example_is_a_real_report() {
        let report = super::buyers::example_report();
        assert!(report["score"].as_u64().is_some_and(|s| s <= 1000), "{report}");
        assert!(report["nivel"].is_string(), "{report}");
    }
}
