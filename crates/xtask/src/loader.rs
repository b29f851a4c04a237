//! Trunk's post-build hook: moves the inline wasm loader script into a file,
//! and tidies what Trunk writes so the browser has nothing to warn about.
//!
//! Trunk writes `<script type="module">import init from '…'; …</script>`
//! into `index.html`. The page's Content-Security-Policy allows scripts from
//! its own origin only, so the hook writes that code to `loader-<hash>.js`
//! beside it and leaves `<script type="module" src="…">` in its place.
//!
//! It also drops the `integrity` of the wasm's `preload` link (the browser
//! ignores integrity there, and says so), and makes each worker's loader
//! shim pass its module as `{ module_or_path }`, the form wasm-bindgen asks
//! for (the positional form logs a deprecation warning).

use std::path::PathBuf;

use crate::{Failed, Result};

const OPEN: &str = "<script type=\"module\">";
const CLOSE: &str = "</script>";

/// FNV-1a, for a cache-busting file name.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Rewrites `html`; returns the new page and the loader file `(name, code)`.
pub fn split(
    html: &str,
    public_url: &str,
) -> std::result::Result<(String, String, String), String> {
    let start = html
        .find(OPEN)
        .ok_or("index.html has no inline module script to move")?;
    let body_start = start + OPEN.len();
    let len = html[body_start..]
        .find(CLOSE)
        .ok_or("the inline module script is not closed")?;
    let code = html[body_start..body_start + len].trim().to_string();
    if !code.contains("import init") {
        return Err("the inline module script is not Trunk's loader".into());
    }
    let name = format!("loader-{:016x}.js", fnv1a(&code));
    let base = if public_url.ends_with('/') {
        public_url.to_string()
    } else {
        format!("{public_url}/")
    };
    let page = format!(
        "{}<script type=\"module\" src=\"{base}{name}\"></script>{}",
        &html[..start],
        &html[body_start + len + CLOSE.len()..]
    );
    if page.contains(OPEN) {
        return Err("index.html has more than one inline module script".into());
    }
    Ok((quiet_preloads(&page), name, format!("{code}\n")))
}

/// `html` without `integrity` on `<link rel="preload" … as="fetch">`.
fn quiet_preloads(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<link rel=\"preload\"") {
        let len = rest[at..].find('>').map_or(rest.len() - at, |n| n + 1);
        let tag = &rest[at..at + len];
        out.push_str(&rest[..at]);
        match tag.find(" integrity=\"") {
            Some(i) if tag.contains("as=\"fetch\"") => {
                let value = i + " integrity=\"".len();
                let end = tag[value..].find('"').map_or(tag.len(), |n| value + n + 1);
                out.push_str(&tag[..i]);
                out.push_str(&tag[end..]);
            }
            _ => out.push_str(tag),
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// A worker loader shim with its module passed as `{ module_or_path }`, or
/// `None` when it already is (or is not Trunk's shim).
pub fn modern_shim(code: &str) -> Option<String> {
    const CALL: &str = "wasm_bindgen(\"";
    let at = code.find(CALL)?;
    let path_start = at + CALL.len();
    let path_len = code[path_start..].find("\")")?;
    let path = &code[path_start..path_start + path_len];
    Some(format!(
        "{}wasm_bindgen({{ module_or_path: \"{path}\" }}){}",
        &code[..at],
        &code[path_start + path_len + 2..]
    ))
}

/// The hook itself: works in `$TRUNK_STAGING_DIR`.
pub fn externalise() -> Result {
    let dir = std::env::var_os("TRUNK_STAGING_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| {
            Failed("externalise-loader runs as a Trunk hook (TRUNK_STAGING_DIR is not set)".into())
        })?;
    let public_url = std::env::var("TRUNK_PUBLIC_URL").unwrap_or_else(|_| "/".into());
    let index = dir.join("index.html");
    let html = std::fs::read_to_string(&index)
        .map_err(|e| Failed(format!("cannot read {}: {e}", index.display())))?;
    let (page, name, code) = split(&html, &public_url).map_err(Failed)?;
    std::fs::write(dir.join(&name), code)
        .and_then(|()| std::fs::write(&index, page))
        .map_err(|e| Failed(format!("cannot write the loader: {e}")))?;
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| Failed(format!("cannot list {}: {e}", dir.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.to_string_lossy().ends_with("_loader.js") {
            continue;
        }
        let shim = std::fs::read_to_string(&path)
            .map_err(|e| Failed(format!("cannot read {}: {e}", path.display())))?;
        if let Some(modern) = modern_shim(&shim) {
            std::fs::write(&path, modern)
                .map_err(|e| Failed(format!("cannot write {}: {e}", path.display())))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<head><link rel=\"modulepreload\" href=\"/app.js\"></head><body>\n<script type=\"module\">\nimport init from '/app.js';\nconst wasm = await init({ module_or_path: '/app_bg.wasm' });\n</script></body>";

    #[test]
    fn moves_the_loader_out_of_the_page() {
        let (page, name, code) = split(PAGE, "/").unwrap();
        assert!(name.starts_with("loader-") && name.ends_with(".js"));
        assert!(page.contains(&format!(
            "<script type=\"module\" src=\"/{name}\"></script></body>"
        )));
        assert!(!page.contains("import init"));
        assert!(code.starts_with("import init from '/app.js';"));
        // Same code, same name.
        assert_eq!(split(PAGE, "/").unwrap().1, name);
    }

    #[test]
    fn honours_the_public_url() {
        let (page, name, _) = split(PAGE, "/compaction-drift").unwrap();
        assert!(page.contains(&format!("src=\"/compaction-drift/{name}\"")));
    }

    #[test]
    fn drops_integrity_from_fetch_preloads_only() {
        let page = format!(
            "{PAGE}<link rel=\"modulepreload\" href=\"/a.js\" integrity=\"sha384-A\"><link rel=\"preload\" href=\"/a.wasm\" crossorigin=\"anonymous\" integrity=\"sha384-B\" as=\"fetch\" type=\"application/wasm\"></head>"
        );
        let (page, _, _) = split(&page, "/").unwrap();
        assert!(page.contains("integrity=\"sha384-A\""));
        assert!(!page.contains("sha384-B"));
        assert!(page.contains(
            "<link rel=\"preload\" href=\"/a.wasm\" crossorigin=\"anonymous\" as=\"fetch\" type=\"application/wasm\"></head>"
        ));
    }

    #[test]
    fn passes_a_worker_its_module_as_an_object() {
        let shim = "importScripts(\"./w.js\");wasm_bindgen(\"./w_bg.wasm\");";
        let modern = modern_shim(shim).unwrap();
        assert_eq!(
            modern,
            "importScripts(\"./w.js\");wasm_bindgen({ module_or_path: \"./w_bg.wasm\" });"
        );
        assert_eq!(modern_shim(&modern), None);
    }

    #[test]
    fn refuses_pages_it_does_not_understand() {
        assert!(split("<body></body>", "/").is_err());
        assert!(split("<script type=\"module\">alert(1)</script>", "/").is_err());
        assert!(split("<script type=\"module\">import init", "/").is_err());
    }
}
