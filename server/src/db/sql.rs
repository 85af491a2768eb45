//! A small SQL helper shared by the domain modules: [`Sql`] builds statements from fixed
//! fragments with `$n` placeholders (one text for SQLite and PostgreSQL), and [`fold`] /
//! [`like_pattern`] give the accent- and case-free form that the `*_norm` and `search_text`
//! columns store and that filters are compared with.

// ------------------------------------------------------------------------- text folding

/// Lower-cases, removes accents and diacritics of Latin letters and collapses white space:
/// the form stored in the `*_norm` / `search_text` columns and applied to filter values, so
/// `Querétaro`, `QUERETARO` and `queretaro` match.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for ch in text.trim().chars() {
        if ch.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        let mapped = match ch {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'Á' | 'À' | 'Â' | 'Ä' | 'Ã' | 'Å' => 'a',
            'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' | 'Í' | 'Ì' | 'Î' | 'Ï' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'Ó' | 'Ò' | 'Ô' | 'Ö' | 'Õ' => 'o',
            'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ù' | 'Û' | 'Ü' => 'u',
            'ñ' | 'Ñ' => 'n',
            'ç' | 'Ç' => 'c',
            c => {
                out.extend(c.to_lowercase());
                continue;
            }
        };
        out.push(mapped);
    }
    out
}

/// `%term%` for `LIKE ... ESCAPE '\'`, with `%`, `_` and `\` of the term escaped.
pub fn like_pattern(folded: &str) -> String {
    let mut p = String::with_capacity(folded.len() + 2);
    p.push('%');
    for c in folded.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

// ------------------------------------------------------------------------- dynamic SQL

/// A bound value of [`Sql`].
#[derive(Debug, Clone)]
pub enum Arg {
    Text(String),
    Int(i64),
    Real(f64),
    /// Written as the literal `NULL` (an untyped NULL fits any column on both databases).
    Null,
}

/// SQL text built from fixed fragments with `$n` placeholders (valid on SQLite and
/// PostgreSQL; `QueryBuilder<Any>` would emit `?`, which PostgreSQL rejects). Every value is
/// bound, never spliced.
#[derive(Debug, Default, Clone)]
pub struct Sql {
    pub text: String,
    pub args: Vec<Arg>,
}

impl Sql {
    pub fn new(text: &str) -> Self {
        Sql {
            text: text.to_string(),
            args: Vec::new(),
        }
    }

    pub fn push(&mut self, fragment: &str) -> &mut Self {
        self.text.push_str(fragment);
        self
    }

    pub fn bind(&mut self, arg: Arg) -> &mut Self {
        if let Arg::Null = arg {
            self.text.push_str("NULL");
            return self;
        }
        self.args.push(arg);
        self.text.push('$');
        self.text.push_str(&self.args.len().to_string());
        self
    }

    pub fn bind_text(&mut self, v: impl Into<String>) -> &mut Self {
        self.bind(Arg::Text(v.into()))
    }

    pub fn query_as<T>(&self) -> sqlx::query::QueryAs<'_, sqlx::Any, T, sqlx::any::AnyArguments>
    where
        T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow>,
    {
        let mut q = sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(self.text.clone()));
        for a in &self.args {
            q = match a {
                Arg::Text(s) => q.bind(s.clone()),
                Arg::Int(i) => q.bind(*i),
                Arg::Real(f) => q.bind(*f),
                Arg::Null => q,
            };
        }
        q
    }

    pub fn query(&self) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments> {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(self.text.clone()));
        for a in &self.args {
            q = match a {
                Arg::Text(s) => q.bind(s.clone()),
                Arg::Int(i) => q.bind(*i),
                Arg::Real(f) => q.bind(*f),
                Arg::Null => q,
            };
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        assert_eq!(fold("  Querétaro  "), "queretaro");
        assert_eq!(fold("NUEVO   LEÓN"), "nuevo leon");
        assert_eq!(fold("Peña Ñandú"), "pena nandu");
        assert_eq!(like_pattern("a%b_c"), "%a\\%b\\_c%");
    }

    #[test]
    fn placeholders_are_numbered_and_null_is_literal() {
        let mut sql = Sql::new("SELECT 1 WHERE a = ");
        sql.bind_text("x").push(" AND b = ").bind(Arg::Null).push(" AND c = ").bind(Arg::Int(2));
        assert_eq!(sql.text, "SELECT 1 WHERE a = $1 AND b = NULL AND c = $2");
        assert_eq!(sql.args.len(), 2);
    }
}
