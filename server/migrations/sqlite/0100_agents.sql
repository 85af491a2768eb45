-- Agencies (offices), co-admins, agent profiles, properties and reviews (issue 6). SQLite
-- flavour; keep in step with migrations/postgres. Ids are hyphenated UUID text, timestamps unix
-- seconds, flags 0/1, money and areas REAL (decoded as f64).
--
-- The *_norm / search_text columns hold lower-cased, accent-free copies (computed in Rust by
-- `agents::fold`) so the city, category and name/company filters are case- and
-- accent-insensitive on both databases and can use plain indexes.

CREATE TABLE agencies (
    id          TEXT PRIMARY KEY NOT NULL,
    name        TEXT NOT NULL,
    logo        TEXT,
    city        TEXT,
    owner_id    TEXT NOT NULL REFERENCES users (id),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX agencies_owner_idx ON agencies (owner_id);
CREATE INDEX agencies_name_idx ON agencies (name, id);

-- Co-administrators: users with role agency_admin who manage an office they do not own.
CREATE TABLE agency_admins (
    agency_id   TEXT NOT NULL REFERENCES agencies (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (agency_id, user_id)
);
CREATE INDEX agency_admins_user_idx ON agency_admins (user_id);

CREATE TABLE agent_profiles (
    id              TEXT PRIMARY KEY NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    agency_id       TEXT REFERENCES agencies (id) ON DELETE SET NULL,
    external_id     TEXT,                       -- agency's own key; unique across agents
    image           TEXT,
    city            TEXT,
    city_norm       TEXT,
    category        TEXT,
    category_norm   TEXT,
    company         TEXT,
    bio             TEXT,
    phone1          TEXT,
    phone2          TEXT,
    office_phone    TEXT,
    mobile_phone    TEXT,
    fax             TEXT,
    website         TEXT,
    member_since    TEXT,                       -- YYYY-MM-DD
    broker_address  TEXT,
    social_media    TEXT NOT NULL DEFAULT '{}', -- JSON object facebook/instagram/linkedin/twitter
    search_text     TEXT NOT NULL DEFAULT '',   -- fold(first name + last name + company)
    rating          REAL NOT NULL DEFAULT 0,    -- average of reviews.rating, 0 when none
    reviews_count   INTEGER NOT NULL DEFAULT 0,
    is_active       INTEGER NOT NULL DEFAULT 1,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX agent_profiles_user_key ON agent_profiles (user_id);
CREATE UNIQUE INDEX agent_profiles_external_id_key ON agent_profiles (external_id);
CREATE INDEX agent_profiles_list_idx ON agent_profiles (is_active, rating, id);
CREATE INDEX agent_profiles_city_idx ON agent_profiles (city_norm, is_active, rating, id);
CREATE INDEX agent_profiles_category_idx ON agent_profiles (category_norm, is_active, rating, id);
CREATE INDEX agent_profiles_agency_idx ON agent_profiles (agency_id);

CREATE TABLE properties (
    id           TEXT PRIMARY KEY NOT NULL,
    agent_id     TEXT REFERENCES agent_profiles (id) ON DELETE SET NULL,  -- null once the agent is deleted
    title        TEXT NOT NULL,
    description  TEXT,
    operation    TEXT NOT NULL CHECK (operation IN ('sale','rent')),
    price        REAL NOT NULL,                 -- MXN
    estado       TEXT NOT NULL,                 -- ISO 3166-2:MX code without MX- (score-core State)
    city         TEXT NOT NULL,
    city_norm    TEXT NOT NULL,
    m2           REAL NOT NULL,
    bedrooms     INTEGER,
    bathrooms    INTEGER,
    images       TEXT NOT NULL DEFAULT '[]',    -- JSON array of URLs
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX properties_agent_idx ON properties (agent_id, operation, created_at);
CREATE INDEX properties_estado_idx ON properties (estado, operation, price);
CREATE INDEX properties_operation_idx ON properties (operation, price);
CREATE INDEX properties_city_idx ON properties (city_norm);
CREATE INDEX properties_created_idx ON properties (created_at, id);

-- One review per user and agent; a second POST updates it.
CREATE TABLE reviews (
    id          TEXT PRIMARY KEY NOT NULL,
    agent_id    TEXT NOT NULL REFERENCES agent_profiles (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comment     TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    UNIQUE (user_id, agent_id)
);
CREATE INDEX reviews_agent_idx ON reviews (agent_id, updated_at);
