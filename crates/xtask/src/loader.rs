//! Trunk's post-build hook: moves the inline wasm loader script into a file.
//!
//! Trunk writes `<script type="module">import init from '…'; …</script>`
//! into `index.html`. The page's Content-Security-Policy allows scripts from
//! its own origin only, so the hook writes that code to `loader-<hash>.js`
//! beside it and leaves `<script type="module" src="…">` in its place.

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
    Ok((page, name, format!("{code}\n")))
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
        .map_err(|e| Failed(format!("cannot write the loader: {e}")))
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
    fn refuses_pages_it_does_not_understand() {
        assert!(split("<body></body>", "/").is_err());
        assert!(split("<script type=\"module\">alert(1)</script>", "/").is_err());
        assert!(split("<script type=\"module\">import init", "/").is_err());
    }
}
