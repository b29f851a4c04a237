//! Small bridges to the browser: pixel ratio, colour scheme, element width,
//! chosen files, downloads and the clipboard.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

use crate::chart::Palette;

/// The file chosen in the file input that fired `ev`; the input is cleared,
/// so that choosing the same file again reads it again.
pub fn take_chosen_file(ev: &leptos::ev::Event) -> Option<web_sys::File> {
    let input = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())?;
    let file = input.files().and_then(|f| f.get(0));
    input.set_value("");
    file
}

/// The text of `file`, or `None` when the browser cannot read it.
pub async fn file_text(file: &web_sys::File) -> Option<String> {
    wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|t| t.as_string())
}

/// Device pixels per CSS pixel.
pub fn device_pixel_ratio() -> f64 {
    let r = window().device_pixel_ratio();
    if r.is_finite() && r > 0.0 { r } else { 1.0 }
}

/// The palette for the user's colour scheme, following it when it changes.
pub fn palette_signal() -> ReadSignal<Palette> {
    let query = window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten();
    let pick = |dark: bool| if dark { Palette::DARK } else { Palette::LIGHT };
    let (palette, set_palette) = signal(pick(query.as_ref().is_some_and(|q| q.matches())));
    if let Some(q) = query {
        let listener = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
            move |e: web_sys::MediaQueryListEvent| set_palette.set(pick(e.matches())),
        );
        let _ = q.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
        // The listener lives as long as the page.
        listener.forget();
    }
    palette
}

/// The CSS width of the element behind `node`, kept current by a
/// ResizeObserver (which also reports the first layout). The observer is
/// disconnected when the component that asked goes away.
pub fn observe_width(node: NodeRef<leptos::html::Div>) -> ReadSignal<f64> {
    let (width, set_width) = signal(0.0);
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let entry = entries
                .get(0)
                .dyn_into::<web_sys::ResizeObserverEntry>()
                .ok();
            if let Some(w) = entry.map(|e| e.content_rect().width())
                && width
                    .try_get_untracked()
                    .is_some_and(|old| (w - old).abs() >= 0.5)
            {
                set_width.try_set(w);
            }
        });
        let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
            return;
        };
        observer.observe(&el);
        set_width.set(el.get_bounding_client_rect().width());
        let held = send_wrapper::SendWrapper::new((observer, callback));
        on_cleanup(move || held.take().0.disconnect());
    });
    width
}

/// Whether the element behind `node` is on screen or within a screen's
/// height of it, kept current by an IntersectionObserver (which also
/// reports where it is at first). Where there is no such observer, always.
/// The observer is disconnected when the component that asked goes away.
pub fn seen<E>(node: NodeRef<E>) -> ReadSignal<bool>
where
    E: leptos::html::ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let (seen, set_seen) = signal(false);
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            watch(el.unchecked_ref(), set_seen);
        }
    });
    seen
}

/// Up to this many rows, a list draws every row wherever it is (the
/// built-in scenarios have at most a few dozen facts and actions); a longer
/// one draws a row only while it is in view ([`seen`]).
pub const EAGER_ROWS: usize = 60;

/// [`seen`] for a list of `rows` rows: always, for a short list.
pub fn seen_in_list<E>(node: NodeRef<E>, rows: usize) -> ReadSignal<bool>
where
    E: leptos::html::ElementType,
    E::Output: JsCast + Clone + 'static,
{
    if rows <= EAGER_ROWS {
        signal(true).0
    } else {
        seen(node)
    }
}

fn watch(el: &web_sys::Element, set_seen: WriteSignal<bool>) {
    let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
        // The last entry is the latest.
        if let Some(entry) = entries
            .iter()
            .last()
            .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
        {
            set_seen.try_set(entry.is_intersecting());
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin("100% 0px");
    let Ok(observer) = web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    ) else {
        set_seen.set(true);
        return;
    };
    observer.observe(el);
    let held = send_wrapper::SendWrapper::new((observer, callback));
    on_cleanup(move || held.take().0.disconnect());
}

/// The id of the element an event happened on ("" for none): for markup
/// whose events are answered where they bubble.
pub fn target_id(ev: &web_sys::Event) -> String {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|e| e.id())
        .unwrap_or_default()
}

/// Puts `text` on the clipboard, then tells `done` whether it could.
pub fn copy_text(text: String, done: impl FnOnce(bool) + 'static) {
    let clipboard = window().navigator().clipboard();
    leptos::task::spawn_local(async move {
        done(
            wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text))
                .await
                .is_ok(),
        );
    });
}

/// Offers `bytes` as a download named `name`.
pub fn download(name: &str, mime: &str, bytes: &[u8]) -> Result<(), String> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|_| "the browser could not make the file".to_string())?;
    let url = Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser could not make the file".to_string())?;
    let result = download_url(name, &url);
    // The download starts asynchronously: free the blob a while later.
    set_timeout(
        move || {
            let _ = Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(60),
    );
    result
}

/// Draws `svg` (a document `width` × `height` CSS pixels) as a PNG at
/// `scale` device pixels per CSS pixel, and offers it as `name`: the page
/// rasterises what the worker drew, so it carries no drawing code of its
/// own for exports. `done` hears what went wrong, if anything.
pub fn download_svg_as_png(
    name: String,
    svg: &str,
    (width, height): (u32, u32),
    scale: f64,
    done: impl FnOnce(Result<(), String>) + 'static,
) {
    let failed = || "the chart could not be drawn".to_string();
    let image = match web_sys::HtmlImageElement::new() {
        Ok(i) => i,
        Err(_) => return done(Err(failed())),
    };
    let url = match Blob::new_with_str_sequence_and_options(&js_sys::Array::of1(&svg.into()), &{
        let o = BlobPropertyBag::new();
        o.set_type("image/svg+xml");
        o
    })
    .and_then(|b| Url::create_object_url_with_blob(&b))
    {
        Ok(u) => u,
        Err(_) => return done(Err(failed())),
    };
    let img = image.clone();
    let src = url.clone();
    let onload = Closure::once_into_js(move || {
        let _ = Url::revoke_object_url(&src);
        let (w, h) = (
            (f64::from(width) * scale).round() as u32,
            (f64::from(height) * scale).round() as u32,
        );
        let drawn = (|| {
            let canvas: web_sys::HtmlCanvasElement =
                document().create_element("canvas").ok()?.unchecked_into();
            canvas.set_width(w);
            canvas.set_height(h);
            let context: web_sys::CanvasRenderingContext2d =
                canvas.get_context("2d").ok()??.unchecked_into();
            context
                .draw_image_with_html_image_element_and_dw_and_dh(
                    &img,
                    0.0,
                    0.0,
                    f64::from(w),
                    f64::from(h),
                )
                .ok()?;
            canvas.to_data_url_with_type("image/png").ok()
        })();
        done(match drawn {
            Some(png) => download_url(&name, &png),
            None => Err(failed()),
        });
    });
    image.set_onload(Some(onload.unchecked_ref()));
    image.set_src(&url);
}

/// Offers the resource at `url` (a blob: or data: URL) as a download.
pub fn download_url(name: &str, url: &str) -> Result<(), String> {
    let anchor: HtmlAnchorElement = document()
        .create_element("a")
        .map_err(|_| "the browser could not start the download".to_string())?
        .unchecked_into();
    anchor.set_href(url);
    anchor.set_download(name);
    anchor.click();
    Ok(())
}

/// A file name from parts: lowercase letters, digits and dashes.
pub fn file_name(parts: &[&str], extension: &str) -> String {
    let mut name = String::new();
    for part in parts {
        let clean: String = part
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let clean = clean.trim_matches('-');
        if clean.is_empty() {
            continue;
        }
        if !name.is_empty() {
            name.push('-');
        }
        name.push_str(clean);
    }
    format!("{name}.{extension}")
}
