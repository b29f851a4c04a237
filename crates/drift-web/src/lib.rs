//! The Compaction Drift page.
//!
//! The pure parts build and test natively: [`share`] (the page state as a
//! link), [`chart`] (the timelines, drawn on any plotters backend), [`story`]
//! (the headline and why lines) and [`csv`]. The Leptos application in `app`
//! exists only on `wasm32`, where Trunk builds it from the root `index.html`.

pub mod chart;
pub mod csv;
pub mod share;
pub mod story;

#[cfg(target_arch = "wasm32")]
pub mod app;
