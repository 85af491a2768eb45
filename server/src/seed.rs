//! `server seed`: fills a development database with realistic offices, agents, properties and
//! reviews across the 32 Mexican states, so a newcomer sees a populated API at once.
//!
//! Everything is inserted in ONE transaction with multi-row INSERTs (10,000 agents take a few
//! seconds). Every seeded account (office owners, agents, reviewers) is active and verified and
//! shares one password, printed at the end; e-mails end in `@seed.example.test` and carry a
//! run tag, so the command can run several times on the same database. The data is
//! deterministic for a given `--seed`.

use crate::{
    db::{
        self, Db,
        sql::{Arg, Sql, fold},
    },
    domain::agents::search_text,
};

/// What to create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedOptions {
    pub agents: usize,
    /// Offices; default one per 25 agents.
    pub agencies: Option<usize>,
    /// Average properties per agent (0..=2x this each).
    pub properties_per_agent: usize,
    /// Buyers who write the reviews; default one per 10 agents (at least 10).
    pub reviewers: Option<usize>,
    pub seed: u64,
    /// Seed a database that already has accounts (refused otherwise).
    pub force: bool,
}

impl Default for SeedOptions {
    fn default() -> Self {
        SeedOptions {
            agents: 200,
            agencies: None,
            properties_per_agent: 3,
            reviewers: None,
            seed: 42,
            force: false,
        }
    }
}

/// What was created.
#[derive(Debug, Clone, Default)]
pub struct SeedSummary {
    pub tag: String,
    pub agencies: usize,
    pub agents: usize,
    pub active_agents: usize,
    pub properties: usize,
    pub reviews: usize,
    pub reviewers: usize,
    /// E-mail of the owner of the first office.
    pub first_owner_email: String,
    /// E-mail of the first agent.
    pub first_agent_email: String,
}

/// Cities with their state (ISO code of score-core): at least one per state.
pub const CITIES: &[(&str, &str)] = &[
    ("Aguascalientes", "AGU"), ("Tijuana", "BCN"), ("Mexicali", "BCN"), ("La Paz", "BCS"),
    ("Campeche", "CAM"), ("Saltillo", "COA"), ("Torreón", "COA"), ("Colima", "COL"),
    ("Tuxtla Gutiérrez", "CHP"), ("Chihuahua", "CHH"), ("Ciudad Juárez", "CHH"),
    ("Ciudad de México", "CMX"), ("Durango", "DUR"), ("León", "GUA"), ("Guanajuato", "GUA"),
    ("Acapulco", "GRO"), ("Pachuca", "HID"), ("Guadalajara", "JAL"), ("Zapopan", "JAL"),
    ("Puerto Vallarta", "JAL"), ("Toluca", "MEX"), ("Naucalpan", "MEX"), ("Morelia", "MIC"),
    ("Cuernavaca", "MOR"), ("Tepic", "NAY"), ("Monterrey", "NLE"), ("San Pedro Garza García", "NLE"),
    ("Oaxaca", "OAX"), ("Puebla", "PUE"), ("Querétaro", "QUE"), ("Cancún", "ROO"),
    ("Playa del Carmen", "ROO"), ("San Luis Potosí", "SLP"), ("Culiacán", "SIN"),
    ("Mazatlán", "SIN"), ("Hermosillo", "SON"), ("Villahermosa", "TAB"), ("Tampico", "TAM"),
    ("Tlaxcala", "TLA"), ("Veracruz", "VER"), ("Xalapa", "VER"), ("Mérida", "YUC"),
    ("Zacatecas", "ZAC"),
];

pub const CATEGORIES: &[&str] = &["Residencial", "Comercial", "Industrial", "Terrenos", "Lujo"];

const FIRST: &[&str] = &[
    "José", "María", "Juan", "Guadalupe", "Luis", "Sofía", "Carlos", "Valentina", "Jorge",
    "Ximena", "Miguel", "Camila", "Fernando", "Regina", "Alejandro", "Renata", "Ricardo",
    "Mariana", "Andrés", "Daniela", "Raúl", "Lucía", "Héctor", "Fernanda", "Iván", "Paulina",
    "Óscar", "Natalia", "Rubén", "Andrea", "Ángel", "Itzel", "Emilio", "Citlali", "Tomás", "Inés",
];

const LAST: &[&str] = &[
    "Hernández", "García", "Martínez", "López", "González", "Pérez", "Rodríguez", "Sánchez",
    "Ramírez", "Cruz", "Flores", "Gómez", "Morales", "Vázquez", "Reyes", "Jiménez", "Torres",
    "Díaz", "Gutiérrez", "Ruiz", "Mendoza", "Aguilar", "Ortiz", "Moreno", "Castillo", "Romero",
    "Álvarez", "Méndez", "Chávez", "Rivera", "Juárez", "Ramos", "Domínguez", "Herrera", "Medina",
    "Castro", "Vargas", "Guzmán", "Velázquez", "Muñoz", "Rojas", "Núñez", "Ibarra", "Peña",
];

const OFFICE_A: &[&str] = &[
    "Inmobiliaria", "Bienes Raíces", "Casas", "Grupo", "Propiedades", "Hogares", "Realty",
];
const OFFICE_B: &[&str] = &[
    "del Valle", "Azteca", "del Bajío", "Norte", "Pacífico", "Sureste", "Premier", "Horizonte",
    "Cumbres", "Colonial", "Maya", "Real", "Alameda", "Los Pinos",
];

const PROPERTY_KIND: &[&str] = &["Casa", "Departamento", "Terreno", "Local comercial", "Oficina", "Bodega"];
const PROPERTY_WHAT: &[&str] = &[
    "con jardín", "cerca del centro", "en fraccionamiento privado", "remodelado", "con vista",
    "amplio", "en esquina", "con alberca", "nuevo", "listo para habitar",
];

/// SplitMix64: small, deterministic, good enough for fake data.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn ascii_slug(s: &str) -> String {
    fold(s)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '.' })
        .collect()
}

/// Multi-row INSERTs of `rows` into `table(columns)`.
async fn insert_rows(
    conn: &mut sqlx::AnyConnection,
    table: &str,
    columns: &[&str],
    rows: Vec<Vec<Arg>>,
) -> Result<(), sqlx::Error> {
    // Small statements: sqlx-sqlite binds parameters by name, which costs O(n²) in the
    // number of parameters of one statement; ~250 parameters per statement is the sweet spot.
    let per = (250 / columns.len()).max(1);
    let mut it = rows.into_iter().peekable();
    while it.peek().is_some() {
        let mut sql = Sql::new(&format!("INSERT INTO {table} ({}) VALUES ", columns.join(", ")));
        for (i, row) in it.by_ref().take(per).enumerate() {
            sql.push(if i == 0 { "(" } else { ", (" });
            for (j, v) in row.into_iter().enumerate() {
                if j > 0 {
                    sql.push(", ");
                }
                sql.bind(v);
            }
            sql.push(")");
        }
        sql.query().execute(&mut *conn).await?;
    }
    Ok(())
}

fn t(s: impl Into<String>) -> Arg {
    Arg::Text(s.into())
}

/// Optional text: a value, or the literal NULL.
fn opt(v: Option<String>) -> Arg {
    match v {
        Some(s) => Arg::Text(s),
        None => Arg::Null,
    }
}

/// Seeds the database. `password_hash` is the Argon2 hash every seeded account gets.
pub async fn run(db: &Db, password_hash: &str, opts: &SeedOptions) -> Result<SeedSummary, sqlx::Error> {
    let mut rng = Rng(opts.seed ^ 0x5EED);
    let tag = format!("{:06x}", Rng(db::now() as u64 ^ opts.seed).next() & 0xFF_FFFF);
    let n_agents = opts.agents;
    let n_agencies = opts.agencies.unwrap_or((n_agents / 25).max(1));
    let n_reviewers = opts.reviewers.unwrap_or((n_agents / 10).max(10));
    let now = db::now();
    let mut summary = SeedSummary {
        tag: tag.clone(),
        agencies: n_agencies,
        agents: n_agents,
        reviewers: n_reviewers,
        ..Default::default()
    };

    let user_cols = [
        "id", "email", "password_hash", "first_name", "last_name", "phone", "role", "status",
        "email_verified", "created_at", "updated_at",
    ];
    let mut users: Vec<Vec<Arg>> = Vec::new();
    let mut user_row = |email: String, first: &str, last: &str, phone: String, role: &str| -> String {
        let id = db::new_id();
        users.push(vec![
            t(id.clone()), t(email), t(password_hash), t(first), t(last), t(phone), t(role),
            t("active"), Arg::Int(1), Arg::Int(now), Arg::Int(now),
        ]);
        id
    };

    // Offices and their owners.
    let mut agencies: Vec<Vec<Arg>> = Vec::new();
    let mut agency_ids = Vec::with_capacity(n_agencies);
    for i in 0..n_agencies {
        let (city, _) = CITIES[rng.below(CITIES.len())];
        let name = format!("{} {} {}", rng.pick(OFFICE_A), rng.pick(OFFICE_B), i + 1);
        let (first, last) = (rng.pick(FIRST), rng.pick(LAST));
        let email = format!("oficina{}-{tag}@seed.example.test", i + 1);
        if i == 0 {
            summary.first_owner_email = email.clone();
        }
        let owner = user_row(email, first, last, format!("+52 55 {:04} {:04}", rng.below(10_000), rng.below(10_000)), "agency_admin");
        let id = db::new_id();
        agencies.push(vec![
            t(id.clone()), t(name.clone()),
            t(format!("https://img.seed.example.test/logos/{}.png", i + 1)),
            t(city), t(owner), Arg::Int(now - (n_agencies - i) as i64), Arg::Int(now),
        ]);
        agency_ids.push(id);
    }

    // Reviewers (buyers).
    let mut reviewers = Vec::with_capacity(n_reviewers);
    for i in 0..n_reviewers {
        let (first, last) = (rng.pick(FIRST), rng.pick(LAST));
        reviewers.push(user_row(
            format!("comprador{}-{tag}@seed.example.test", i + 1),
            first, last, format!("+52 33 {:04} {:04}", rng.below(10_000), rng.below(10_000)), "comprador",
        ));
    }

    // Agents, their properties and reviews.
    let mut profiles: Vec<Vec<Arg>> = Vec::with_capacity(n_agents);
    let mut properties: Vec<Vec<Arg>> = Vec::new();
    let mut reviews: Vec<Vec<Arg>> = Vec::new();
    // Each state's price per m² in the embedded calibration, by INEGI code − 1.
    let calibracion = score_core::Calibration::default();
    let precios_m2: Vec<f64> = score_core::State::all()
        .map(|s| {
            calibracion
                .cifra(&format!("estados[{}].precio_m2", s.inegi() - 1))
                .map_or(25_000.0, |p| p.to_string().parse().unwrap_or(25_000.0))
        })
        .collect();
    for i in 0..n_agents {
        let (first, last1, last2) = (rng.pick(FIRST), rng.pick(LAST), rng.pick(LAST));
        let last = format!("{last1} {last2}");
        let email = format!("{}.{}.{}-{tag}@seed.example.test", ascii_slug(first), ascii_slug(last1), i + 1);
        if i == 0 {
            summary.first_agent_email = email.clone();
        }
        let phone = format!("+52 {:02} {:04} {:04}", 10 + rng.below(90), rng.below(10_000), rng.below(10_000));
        let user_id = user_row(email, first, &last, phone.clone(), "agent");
        let (city, estado) = CITIES[rng.below(CITIES.len())];
        let category = rng.pick(CATEGORIES);
        // 85% in an office, 15% independent.
        let agency = (rng.below(100) < 85).then(|| agency_ids[rng.below(agency_ids.len())].clone());
        let company = match &agency {
            Some(_) => format!("{} {}", rng.pick(OFFICE_A), rng.pick(OFFICE_B)),
            None => format!("{last1} Bienes Raíces"),
        };
        let active = rng.below(100) < 95;
        if active {
            summary.active_agents += 1;
        }
        let id = db::new_id();
        // Reviews first, so the profile carries a consistent rating.
        let n_rev = rng.below(6).min(n_reviewers);
        let start = rng.below(n_reviewers);
        let mut sum = 0i64;
        for k in 0..n_rev {
            let rating = [5, 5, 4, 4, 4, 3, 2, 5, 3, 1][rng.below(10)];
            sum += rating;
            let when = now - rng.below(365 * 86_400) as i64;
            reviews.push(vec![
                t(db::new_id()), t(id.clone()), t(reviewers[(start + k) % n_reviewers].clone()),
                Arg::Int(rating), t(["Excelente atención", "Muy profesional", "Respondió rápido", "Buen trato", "Podría mejorar"][rng.below(5)]),
                Arg::Int(when), Arg::Int(when),
            ]);
        }
        let rating = if n_rev == 0 { 0.0 } else { sum as f64 / n_rev as f64 };
        let social = format!(
            "{{\"facebook\":null,\"instagram\":\"https://instagram.com/{0}\",\"linkedin\":\"https://linkedin.com/in/{0}\",\"twitter\":null}}",
            ascii_slug(&format!("{first}{last1}{}", i + 1))
        );
        let member_since = format!("{}-{:02}-{:02}", 1995 + rng.below(30), 1 + rng.below(12), 1 + rng.below(28));
        profiles.push(vec![
            t(id.clone()), t(user_id), opt(agency.clone()), t(format!("SEED-{tag}-{:06}", i + 1)),
            t(format!("https://img.seed.example.test/agents/{}.jpg", i + 1)), t(city), t(fold(city)),
            t(category), t(fold(category)), t(company.clone()),
            t(format!("Agente {} en {city} con experiencia en operaciones de compra, venta y renta.", category.to_lowercase())),
            t(phone.clone()), Arg::Null, t(format!("+52 {:02} {:04} 0000", 10 + rng.below(90), rng.below(10_000))), t(phone),
            Arg::Null, t(format!("https://{}.seed.example.test", ascii_slug(&format!("{first}{last1}{}", i + 1)))),
            t(member_since), t(format!("Av. Principal {}, {city}", 1 + rng.below(2000))), t(social),
            t(search_text(first, &last, Some(&company))), Arg::Real(rating), Arg::Int(n_rev as i64),
            Arg::Int(i64::from(active)), Arg::Int(now - (n_agents - i) as i64), Arg::Int(now),
        ]);
        let precio_m2: f64 = score_core::State::parse(estado)
            .map_or(25_000.0, |s| precios_m2[usize::from(s.inegi() - 1)]);
        let n_props = rng.below(2 * opts.properties_per_agent + 1);
        for _ in 0..n_props {
            let sale = rng.below(100) < 65;
            let kind = rng.pick(PROPERTY_KIND);
            // Most Mexican listings are small (the squared draw puts the median near 90 m²),
            // and the economic segment sells below the state's average price per m², so
            // moderate buyers find matches as they would on a real portal.
            let size = rng.unit();
            let m2 = (38.0 + size * size * 220.0).round();
            let value = m2 * precio_m2 * (0.6 + 0.5 * rng.unit() + 0.3 * size * size);
            let price = if sale { (value / 1000.0).round() * 1000.0 } else { (value * 0.005 / 100.0).round() * 100.0 };
            let bedrooms = if kind == "Casa" || kind == "Departamento" { Arg::Int(1 + rng.below(4) as i64) } else { Arg::Null };
            let bathrooms = if kind == "Terreno" { Arg::Null } else { Arg::Int(1 + rng.below(3) as i64) };
            let pid = db::new_id();
            let when = now - rng.below(180 * 86_400) as i64;
            properties.push(vec![
                t(pid.clone()), t(id.clone()), t(format!("{kind} {} en {city}", rng.pick(PROPERTY_WHAT))),
                t(format!("{kind} de {m2} m² en {city}. {}.", if sale { "En venta" } else { "En renta" })),
                t(if sale { "sale" } else { "rent" }), Arg::Real(price), t(estado), t(city), t(fold(city)),
                Arg::Real(m2), bedrooms, bathrooms,
                t(format!("[\"https://img.seed.example.test/properties/{pid}/1.jpg\"]")),
                Arg::Int(when), Arg::Int(when),
            ]);
        }
    }
    summary.properties = properties.len();
    summary.reviews = reviews.len();

    let mut tx = db.begin().await?;
    insert_rows(&mut tx, "users", &user_cols, users).await?;
    insert_rows(&mut tx, "agencies", &["id", "name", "logo", "city", "owner_id", "created_at", "updated_at"], agencies).await?;
    insert_rows(
        &mut tx,
        "agent_profiles",
        &[
            "id", "user_id", "agency_id", "external_id", "image", "city", "city_norm", "category",
            "category_norm", "company", "bio", "phone1", "phone2", "office_phone", "mobile_phone",
            "fax", "website", "member_since", "broker_address", "social_media", "search_text",
            "rating", "reviews_count", "is_active", "created_at", "updated_at",
        ],
        profiles,
    )
    .await?;
    insert_rows(
        &mut tx,
        "properties",
        &[
            "id", "agent_id", "title", "description", "operation", "price", "estado", "city",
            "city_norm", "m2", "bedrooms", "bathrooms", "images", "created_at", "updated_at",
        ],
        properties,
    )
    .await?;
    insert_rows(&mut tx, "reviews", &["id", "agent_id", "user_id", "rating", "comment", "created_at", "updated_at"], reviews).await?;
    tx.commit().await?;
    Ok(summary)
}
