-- Narrow covering index for the public list's name/company search (issue 6): a `search_text`
-- LIKE '%...%' filter cannot seek, but scanning this index reads a fraction of the pages of the
-- wide agent_profiles rows, and it carries rating and id for the ordering.
CREATE INDEX agent_profiles_search_idx ON agent_profiles (is_active, search_text, rating, id);
