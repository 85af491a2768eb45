//! A profile as JSON text with each amount's own digits: what a store keeps, so that a stored
//! profile scores again as it was sent (see `Profile::to_json_string`; the JSON value of
//! [`Profile::to_json_value`] holds each amount as its nearest double).

use crate::profile::Profile;
use rust_decimal::Decimal;
use serde_json::Value;

impl Profile {
    /// [`Profile::to_json_value`] as JSON text, with every amount written as its own digits
    /// (without trailing zeros) instead of its nearest double: what a server stores, since
    /// [`Profile::from_json_str`] reads it back to an equal profile whatever the amounts'
    /// digits (`10379.1999999999999999` stays that amount; through a double it would be 10379.2).
    pub fn to_json_string(&self) -> String {
        let co = self.coacreditado.as_ref();
        members_text(&self.to_json_value(), &|path| match path {
            ["ingreso_mensual"] => Some(self.ingreso_mensual),
            ["deudas_mensuales"] => self.deudas_mensuales,
            ["ahorro"] => Some(self.ahorro),
            ["subcuenta_fondo"] => self.subcuenta_fondo,
            ["coacreditado", "ingreso_mensual"] => co.map(|c| c.ingreso_mensual),
            ["coacreditado", "deudas_mensuales"] => co.and_then(|c| c.deudas_mensuales),
            ["coacreditado", "subcuenta_fondo"] => co.and_then(|c| c.subcuenta_fondo),
            _ => None,
        })
    }
}

/// The JSON text of `value`, except that a member whose path (its keys from the top) `amount`
/// names is written as that decimal's digits.
fn members_text(value: &Value, amount: &dyn Fn(&[&str]) -> Option<Decimal>) -> String {
    fn write<'a>(out: &mut String, value: &'a Value, path: &mut Vec<&'a str>, amount: &dyn Fn(&[&str]) -> Option<Decimal>) {
        let Value::Object(map) = value else {
            match amount(path) {
                Some(d) => out.push_str(&d.normalize().to_string()),
                None => out.push_str(&value.to_string()),
            }
            return;
        };
        out.push('{');
        for (i, (key, member)) in map.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&Value::String(key.clone()).to_string());
            out.push(':');
            path.push(key);
            write(out, member, path, amount);
            path.pop();
        }
        out.push('}');
    }
    let mut out = String::with_capacity(256);
    write(&mut out, value, &mut Vec::new(), amount);
    out
}
