//! The layers below the service: the rules and notation of Tak and Takat, perft, the pictures,
//! and the engine.

#[path = "../support/mod.rs"]
mod support;

mod analysis;
mod engine;
mod notation;
mod perft;
mod pictures;
mod puzzles;
mod tak;
mod takat;
mod takat_pictures;
