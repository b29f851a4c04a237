//! The Compaction Drift page.
//!
//! The pure parts build and test natively: [`share`] (the page state as a
//! link), [`chart`] (the timelines, drawn on any plotters backend), [`compare`]
//! (two policies side by side), [`marks`] (audit findings in both texts), [`story`]
//! (the headline and why lines), [`tables`] (static report tables), [`worker`]
//! (what the Web Workers are asked and answer), [`imported`] (a transcript
//! import as the session page shows it) and [`csv`]. The Leptos application in `app`
//! exists only on `wasm32`, where Trunk builds it from the root `index.html`.

pub mod chart;
pub mod compare;
pub mod csv;
pub mod html;
pub mod imported;
pub mod marks;
pub mod share;
pub mod story;
pub mod tables;
pub mod worker;

#[cfg(target_arch = "wasm32")]
pub mod app;
