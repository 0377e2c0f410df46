//! Bredon's web pages: served in this process over a store the service fills, asked with
//! plain HTTP (methods, 404s, a fuzz of paths) and read in headless Chromium through
//! chromedriver (the board stepped by the slider and the keys, hostile names as text, a
//! player's rating chart and the daily puzzle at a desktop's and a phone's width).

#[path = "../support/mod.rs"]
mod support;

mod bounds;
mod browser;
mod browser_pages;
mod game_extras;
mod http;
mod pages;
mod players;
mod puzzle;
mod site;
mod tournament_page;
