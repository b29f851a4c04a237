//! The SVG surface: what exports (made in the analysis worker) and the
//! native tests draw on. The page draws on its canvases directly, so each
//! module compiles the drawing code once, for the one backend it uses.

use std::fmt;

use plotters::prelude::SVGBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// The backend exports and tests draw on.
#[allow(missing_debug_implementations)]
pub enum Surface<'a> {
    /// An SVG document.
    Svg(SVGBackend<'a>),
}

/// A backend's error, as text.
#[derive(Debug)]
pub struct SurfaceError(String);

impl fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SurfaceError {}

fn lift<E: std::error::Error + Send + Sync>(
    e: DrawingErrorKind<E>,
) -> DrawingErrorKind<SurfaceError> {
    match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(SurfaceError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// Calls the same method on whichever backend this is.
macro_rules! on_surface {
    ($surface:expr, $backend:ident => $call:expr) => {
        match $surface {
            Surface::Svg($backend) => $call.map_err(lift),
        }
    };
}

type Drawing = Result<(), DrawingErrorKind<SurfaceError>>;

impl DrawingBackend for Surface<'_> {
    type ErrorType = SurfaceError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Surface::Svg(b) => b.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Drawing {
        on_surface!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Drawing {
        on_surface!(self, b => b.present())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawing {
        on_surface!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawing {
        on_surface!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawing {
        on_surface!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawing {
        on_surface!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawing {
        on_surface!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawing {
        on_surface!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Drawing {
        on_surface!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<SurfaceError>> {
        on_surface!(self, b => b.estimate_text_size(text, style))
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Drawing {
        on_surface!(self, b => b.blit_bitmap(pos, size, src))
    }
}
