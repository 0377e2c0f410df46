//! The web pages: a read-only view of the servers that turned them on, served by axum beside
//! the bot (`BREDON_WEB_ADDR` with `bredon run`) or alone (`bredon web`), over the same service.
//! Only GET and HEAD; every other method is 405 wherever it is sent. A server that has not
//! turned its pages on, an unknown address, and a game it does not have all answer the same
//! 404. Every page carries a strict Content-Security-Policy (scripts, styles and pictures from
//! this site only, nothing inline) and sends no referrer, so a server's address never leaks.

mod connections;
mod live;
mod pages;
mod player_page;
mod puzzle_page;
mod routes;
mod serve;
mod site;
mod tournament_page;
mod viewer;

pub use connections::HEADER_READ;
pub use serve::{
    serve_beside, serve_on, serve_on_reading_headers_within, RateLimit, CONTENT_SECURITY_POLICY,
};
