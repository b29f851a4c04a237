//! A Web Worker seen from the page: started once, asked for the latest thing
//! only. A worker says [`READY`] once it listens; what the page asks before
//! then is kept (the latest request only) and sent at that moment.
//! [`Lazy`] starts one when it is first needed, starts it afresh after it
//! stops, and gives up on it once it cannot load.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::{LocalStorage, StoredValue, UpdateValue, WithValue};
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

/// A worker started when first needed, started afresh after it stops (a
/// request too large for its memory, say), and given up on once it cannot
/// load here (its files blocked or missing).
#[derive(Clone, Copy)]
pub struct Lazy {
    inner: StoredValue<LazyInner, LocalStorage>,
}

struct LazyInner {
    url: String,
    client: Option<Client>,
    /// Why it cannot load, once known.
    gone: Option<String>,
    on_reply: Rc<dyn Fn(String)>,
    on_failure: Rc<dyn Fn(String, bool)>,
}

impl Lazy {
    /// The worker whose loader is `file` beside the page's script (see
    /// [`beside_page_script`]), not started yet. Its replies go to
    /// `on_reply`; `on_failure` hears why it failed and whether it had been
    /// listening (if not, it never loaded, and the request waiting for it
    /// was not sent).
    pub fn new(
        file: &str,
        on_reply: impl Fn(String) + 'static,
        on_failure: impl Fn(String, bool) + 'static,
    ) -> Lazy {
        Lazy {
            inner: StoredValue::new_local(LazyInner {
                url: beside_page_script(file),
                client: None,
                gone: None,
                on_reply: Rc::new(on_reply),
                on_failure: Rc::new(on_failure),
            }),
        }
    }

    /// Why the worker cannot run here, once that is known.
    pub fn gone(self) -> Option<String> {
        self.inner.with_value(|w| w.gone.clone())
    }

    /// Starts the worker unless it runs or cannot.
    pub fn start(self) {
        let Some((url, on_reply)) = self.inner.with_value(|w| {
            (w.client.is_none() && w.gone.is_none()).then(|| (w.url.clone(), w.on_reply.clone()))
        }) else {
            return;
        };
        let on_failure = move |why: String, listened: bool| {
            let tell = self.inner.try_update_value(|w| {
                w.client = None;
                if !listened {
                    w.gone = Some(why.clone());
                }
                w.on_failure.clone()
            });
            if let Some(tell) = tell {
                tell(why, listened);
            }
        };
        let started = Client::start(&url, move |reply| on_reply(reply), on_failure);
        self.inner.update_value(|w| match started {
            Ok(c) => w.client = Some(c),
            Err(why) => w.gone = Some(why),
        });
    }

    /// Asks the worker, starting it if need be; `false` when it cannot run
    /// here.
    pub fn send(self, message: String) -> bool {
        self.start();
        self.inner
            .with_value(|w| w.client.as_ref().map(|c| c.send(message)))
            .is_some()
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
