-- Leads of the credit-score API, phase 3 (issue 7). PostgreSQL flavour; keep in step with
-- migrations/sqlite. A lead is a buyer profile's documented interest in one property,
-- addressed to the agent who listed it at that time. One lead per (profile, property): repeated
-- interest updates the message and contact preference of the same row (the unique key makes
-- this hold under concurrent requests).

CREATE TABLE leads (
    id                  TEXT PRIMARY KEY NOT NULL,
    buyer_profile_id    TEXT NOT NULL REFERENCES buyer_profiles (id) ON DELETE CASCADE,
    property_id         TEXT NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    agent_id            TEXT REFERENCES agent_profiles (id) ON DELETE SET NULL,
    message             TEXT,
    contact_preference  TEXT NOT NULL CHECK (contact_preference IN ('email', 'telefono', 'whatsapp')),
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL,
    UNIQUE (buyer_profile_id, property_id)
);
CREATE INDEX leads_agent_idx ON leads (agent_id, updated_at);
