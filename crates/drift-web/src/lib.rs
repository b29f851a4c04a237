//! The Compaction Drift page.
//!
//! The pure parts build and test natively: [`page`] (what the simulator
//! shows: scenario, changes, view), [`link`] (that state as a link), [`chart`] (the timelines, drawn on any plotters backend), [`compare`]
//! (two policies side by side), [`marks`] (audit findings in both texts), [`story`]
//! (the headline and why lines), [`tables`] (static report tables), [`worker`]
//! (what the Web Workers are asked and answer), [`imported`] (a transcript
//! import as the session page shows it) and [`csv`]. The Leptos application in `app`
//! exists only on `wasm32`, where Trunk builds it from the root `index.html`.
//!
//! The simulator and its analysis worker link `drift-core` alone. "Your own
//! session" and its import worker (and the modules only they use: `marks`,
//! `imported`) need the `session` feature, which brings in `drift-session`.

pub mod chart;
pub mod compare;
pub mod csv;
pub mod html;
#[cfg(feature = "session")]
pub mod imported;
pub mod link;
#[cfg(feature = "session")]
pub mod marks;
pub mod page;
pub mod story;
pub mod tables;
pub mod worker;

#[cfg(target_arch = "wasm32")]
pub mod app;
