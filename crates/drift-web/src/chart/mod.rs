//! The timelines, drawn with plotters on any backend: the page's canvases,
//! the SVG export and the native tests all run this code.
//!
//! The model (`model.rs`: [`Chart`], [`Row`], [`Axis`], [`Fill`]) is what
//! is drawn, apart from any drawing: a row is one fact, its fidelity as a step line (it only changes at rounds), its
//! fabrication risk as a thin second line, the actionable threshold dashed,
//! rounds as faint rules, a strip along the bottom shaded by depth (darker =
//! summarised more often), its own turn as a tick, and the actions it governs
//! as dots coloured by outcome; [`Frame`] maps turns and fidelities to
//! pixels for drawing and hovering alike. The drawing (`draw.rs`:
//! [`draw_row`], [`draw_fill`], …) renders it on a [`Surface`]
//! (`surface.rs`): a canvas in the page, SVG for exports and tests.

mod draw;
mod model;
mod surface;

pub use draw::{
    Palette, draw_axis, draw_export, draw_fill, draw_ground, draw_life, draw_row, export_size,
    to_svg,
};
pub use model::{
    Axis, Chart, Fill, Frame, Marker, Presence, Row, Step, decimate, size, state_label, step_at,
};
pub use surface::{Surface, SurfaceError};
