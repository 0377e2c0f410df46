//! Bredon: a Discord bot that hosts correspondence games of Tak.
//!
//! The layers follow DESIGN.md: [`tak`] is the pure rules engine everything else stands on.

pub mod bot;
pub mod cli;
pub mod clock;
pub mod engine;
pub mod game;
pub mod playtak;
pub mod ratings;
pub mod render;
pub mod service;
pub mod store;
pub mod tak;
pub mod takat;
pub mod tournament;
pub mod web;
pub mod words;
