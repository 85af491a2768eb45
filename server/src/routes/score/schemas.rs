//! score-core's own JSON Schemas of the profile and of the report (`score_core::schema`, the
//! same text as `fixtures/profile.schema.json` and `fixtures/report.schema.json`) as
//! components of the OpenAPI document, so that the API documents exactly what the model reads
//! and writes. utoipa cannot express them (`not`, type lists), so an operation names a
//! component through a type of this module whose own schema is an empty placeholder, and
//! [`insert`] puts score-core's schema in its place in the served JSON.

use std::borrow::Cow;

use serde_json::{Value, json};
use utoipa::{
    PartialSchema, ToSchema,
    openapi::{RefOr, schema::Schema},
};

/// A component filled in by [`insert`].
macro_rules! score_core_component {
    ($(#[$doc:meta])* $type:ident) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $type;

        impl PartialSchema for $type {
            fn schema() -> RefOr<Schema> {
                utoipa::openapi::schema::Object::new().into()
            }
        }

        impl ToSchema for $type {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($type))
            }
        }
    };
}

score_core_component!(
    /// The score-core profile (`score_core::schema::profile_schema`), the body of the
    /// stateless calculator and each of a batch's `perfiles`. The server hands the body to
    /// score-core, so its error codes are the same everywhere.
    Profile
);
score_core_component!(
    /// The profile with the optional contact fields `nombre`, `email` and `telefono` (phases 1
    /// and 2, onboarding).
    ProfileInput
);
score_core_component!(
    /// The `platform_score` report of spec 2.4 (`score_core::schema::report_schema`).
    ScoreReport
);

/// The contact fields of [`ProfileInput`]: stored on the profile, shown back, and shared only
/// with the agent of a property the buyer shows interest in (`null` or empty clears one).
fn contact_fields() -> Value {
    json!({
        "nombre": {"description": "Contact name (stored; shown back).", "type": ["string", "null"], "examples": ["Ana García"]},
        "email": {"description": "Contact e-mail (stored; shared only with the agent of a property the buyer shows interest in).", "type": ["string", "null"], "examples": ["ana.garcia@example.com"]},
        "telefono": {"description": "Contact phone (stored; shared only like the e-mail).", "type": ["string", "null"], "examples": ["+52 33 1234 5678"]},
    })
}

/// A score-core schema as a component: the document's own dialect and base apply, so its
/// `$schema` and `$id` go.
fn component(mut schema: Value) -> Value {
    if let Value::Object(map) = &mut schema {
        map.remove("$schema");
        map.remove("$id");
    }
    schema
}

/// score-core's schemas in place of the placeholders of this module's components.
pub fn insert(doc: &mut Value) {
    let profile = component(score_core::schema::profile_schema());
    let mut input = profile.clone();
    if let (Some(properties), Value::Object(contact)) = (input["properties"].as_object_mut(), contact_fields()) {
        properties.extend(contact);
    }
    input["title"] = "ProfileInput".into();
    let schemas = &mut doc["components"]["schemas"];
    schemas[<Profile as ToSchema>::name().as_ref()] = profile;
    schemas[<ProfileInput as ToSchema>::name().as_ref()] = input;
    let mut report = component(score_core::schema::report_schema());
    report["examples"] = json!([crate::domain::buyers::example_report()]);
    schemas[<ScoreReport as ToSchema>::name().as_ref()] = report;
}
