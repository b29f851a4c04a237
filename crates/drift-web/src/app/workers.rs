//! A Web Worker seen from the page: started once, asked for the latest thing
//! only. A worker says [`READY`] once it listens; what the page asks before
//! then is kept (the latest request only) and sent at that moment.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use crate::worker::READY;

/// A started worker.
#[derive(Clone)]
pub struct Client {
    worker: web_sys::Worker,
    /// `None` once the worker listens; until then, the request to send then.
    waiting: Rc<RefCell<Option<Option<String>>>>,
}

impl Client {
    /// Starts the worker whose loader is at `url`; every reply but
    /// [`READY`] goes to `on_reply`, and `on_error` hears why the worker
    /// failed and whether it had been listening (if not, it never loaded,
    /// and the request waiting for it was not sent).
    pub fn start(
        url: &str,
        on_reply: impl Fn(String) + 'static,
        on_error: impl Fn(String, bool) + 'static,
    ) -> Result<Client, String> {
        let worker =
            web_sys::Worker::new(url).map_err(|_| "the worker could not start".to_string())?;
        let client = Client {
            worker,
            waiting: Rc::new(RefCell::new(Some(None))),
        };
        let listening = client.clone();
        let on_message =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let Some(text) = e.data().as_string() else {
                    return;
                };
                if text == READY {
                    let queued = listening.waiting.borrow_mut().take().flatten();
                    if let Some(message) = queued {
                        listening.post(&message);
                    }
                } else {
                    on_reply(text);
                }
            });
        client
            .worker
            .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let failed = client.clone();
        let on_failure = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
            // An `ErrorEvent` when its code threw; a plain event when its
            // script could not load.
            let why = e
                .dyn_ref::<web_sys::ErrorEvent>()
                .map(web_sys::ErrorEvent::message)
                .unwrap_or_default();
            failed.worker.terminate();
            let listened = failed.waiting.borrow().is_none();
            on_error(
                if why.is_empty() {
                    "the worker stopped".to_string()
                } else {
                    format!("the worker stopped: {why}")
                },
                listened,
            );
        });
        client
            .worker
            .set_onerror(Some(on_failure.as_ref().unchecked_ref()));
        on_failure.forget();
        Ok(client)
    }

    /// Asks the worker: now if it listens, else as soon as it does (a later
    /// request replaces one still waiting).
    pub fn send(&self, message: String) {
        let mut waiting = self.waiting.borrow_mut();
        match waiting.as_mut() {
            Some(slot) => *slot = Some(message),
            None => {
                drop(waiting);
                self.post(&message);
            }
        }
    }

    fn post(&self, message: &str) {
        let _ = self.worker.post_message(&message.into());
    }
}

/// The address of `file` beside the page's own script (where Trunk puts a
/// worker's loader), whatever address the page was opened at, asked for
/// with the version in the script's name (`drift-web-<hash>.js`): a page
/// never starts a loader it cached from an earlier build. The loader in turn
/// asks for its files by their own version (see `cargo xtask`'s loader
/// hook).
pub fn beside_page_script(file: &str) -> String {
    let script = leptos::prelude::document()
        .query_selector("link[rel=modulepreload]")
        .ok()
        .flatten()
        .and_then(|l| l.get_attribute("href"));
    let base = leptos::prelude::document().base_uri().ok().flatten();
    let Some(script) = script
        .zip(base)
        .and_then(|(script, base)| web_sys::Url::new_with_base(&script, &base).ok())
    else {
        return file.to_string();
    };
    let Ok(url) = web_sys::Url::new_with_base(file, &script.href()) else {
        return file.to_string();
    };
    let name = script.pathname();
    if let Some((_, version)) = name
        .rsplit('/')
        .next()
        .and_then(|n| n.strip_suffix(".js"))
        .and_then(|n| n.rsplit_once('-'))
    {
        url.set_search(&format!("v={version}"));
    }
    url.href()
}
