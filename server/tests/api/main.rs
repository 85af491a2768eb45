//! End-to-end tests of the server over real HTTP. One test binary (faster to link); each area
//! adds a module here. Run against PostgreSQL with `TEST_DATABASE_URL=postgres://...`.

mod helpers;

mod agents;
mod auth;
mod calibration;
mod documents;
mod foundation;
mod hygiene;
mod instances;
mod layout;
mod limits;
mod mail;
mod matching;
mod oidc;
mod ops;
mod openapi;
mod partners;
mod printed;
mod sat_ca;
mod score;
mod seeded;
