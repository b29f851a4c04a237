//! A Web Worker seen from the page: started once, asked for the latest thing
//! only. A worker says [`READY`] once it listens; what the page asks before
//! then is kept (the latest request only) and sent at that moment.
//! [`Worker`] is the one place for all of it: it starts one when it is
//! first needed, numbers the requests and keeps only the answer to the
//! latest, starts it afresh after it stops, and gives up on it once it
//! cannot load or keeps stopping. Both the analysis worker
//! ([`super::tips`]) and the import worker (`super::session`) use it.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::{LocalStorage, StoredValue, UpdateValue, WithValue, set_timeout};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use serde_json::Value;

use crate::worker::{READY, read_envelope};

/// A started worker.
#[derive(Clone)]
struct Client {
    worker: web_sys::Worker,
    /// `None` once the worker listens; until then, the request to send then.
    waiting: Rc<RefCell<Option<Option<String>>>>,
}

impl Client {
    /// Starts the worker whose loader is at `url`; every reply but
    /// [`READY`] goes to `on_reply`, and `on_error` hears why the worker
    /// failed and whether it had been listening (if not, it never loaded,
    /// and the request waiting for it was not sent).
    fn start(
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
    fn send(&self, message: String) {
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

/// What a [`Worker`] says about a request.
#[derive(Debug)]
pub enum Answer {
    /// The worker's answer (its reply's `answer`), or its own error.
    Done(Result<Value, String>),
    /// The worker stopped while working on it (a request too large for its
    /// memory, say); the next request starts a fresh one.
    Stopped(String),
    /// The worker cannot run here (its files blocked or missing, or it
    /// failed [`GIVE_UP`] times running): the request was not sent, and the
    /// page may answer it another way.
    Gone(String),
}

/// How many times running a worker may stop without answering before the
/// page gives up on it.
pub const GIVE_UP: u32 = 3;

/// The simulator's analysis worker: what would flip each action, exports,
/// the compare view's and Fix it's markup.
pub const ANALYSIS: &str = "drift-analysis_loader.js";

/// A worker started when first needed and asked for the latest thing only:
/// the one place that numbers requests and matches replies to them. It is
/// started afresh after it stops (a request too large for its memory, say)
/// and given up on once it cannot load or keeps stopping.
#[derive(Clone, Copy)]
pub struct Worker {
    inner: StoredValue<State, LocalStorage>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker").finish_non_exhaustive()
    }
}

struct State {
    url: String,
    client: Option<Client>,
    /// Why it cannot run, once known.
    gone: Option<String>,
    /// Times it stopped since it last answered.
    stops: u32,
    /// The latest request's number.
    latest: u64,
    /// Whether the latest request has gone to the worker.
    sent: bool,
    /// Whether the latest request has its answer.
    answered: bool,
    tell: Rc<dyn Fn(Answer)>,
}

impl Worker {
    /// The worker whose loader is `file` beside the page's script (see
    /// [`beside_page_script`]), not started yet. `tell` hears the answer to
    /// the latest request only.
    pub fn new(file: &str, tell: impl Fn(Answer) + 'static) -> Worker {
        Worker {
            inner: StoredValue::new_local(State {
                url: beside_page_script(file),
                client: None,
                gone: None,
                stops: 0,
                latest: 0,
                sent: false,
                answered: true,
                tell: Rc::new(tell),
            }),
        }
    }

    /// Why the worker cannot run here, once that is known.
    pub fn gone(self) -> Option<String> {
        self.inner.with_value(|w| w.gone.clone())
    }

    /// Whether request `n` is the latest and still unanswered.
    pub fn waiting_for(self, n: u64) -> bool {
        self.inner.with_value(|w| w.latest == n && !w.answered)
    }

    /// Starts the worker unless it runs or cannot.
    pub fn start(self) {
        let Some(url) = self
            .inner
            .with_value(|w| (w.client.is_none() && w.gone.is_none()).then(|| w.url.clone()))
        else {
            return;
        };
        let on_reply = move |text: String| {
            let Some((n, result)) = read_envelope(&text) else {
                return;
            };
            let tell = self.inner.try_update_value(|w| {
                (n == w.latest && !w.answered).then(|| {
                    w.answered = true;
                    w.stops = 0;
                    w.tell.clone()
                })
            });
            if let Some(tell) = tell.flatten() {
                tell(Answer::Done(result));
            }
        };
        let on_failure = move |why: String, listened: bool| {
            let tell = self.inner.try_update_value(|w| {
                w.client = None;
                w.stops += 1;
                if !listened || w.stops >= GIVE_UP {
                    w.gone = Some(why.clone());
                }
                // A request not sent yet goes to the next worker.
                let waiting = w.sent && !w.answered;
                if waiting {
                    w.answered = true;
                }
                waiting.then(|| w.tell.clone())
            });
            if let Some(tell) = tell.flatten() {
                // A worker that never listened was never sent the request.
                tell(if listened {
                    Answer::Stopped(why)
                } else {
                    Answer::Gone(why)
                });
            }
        };
        let started = Client::start(&url, on_reply, on_failure);
        self.inner.update_value(|w| match started {
            Ok(c) => w.client = Some(c),
            Err(why) => w.gone = Some(why),
        });
    }

    /// Numbers a new request: answers to earlier ones are dropped from now on.
    fn next(self) -> u64 {
        self.inner
            .try_update_value(|w| {
                w.latest += 1;
                w.sent = false;
                w.answered = false;
                w.latest
            })
            .unwrap_or(0)
    }

    /// Sends request `n`, starting the worker if need be; `false` (and
    /// [`Answer::Gone`] told) when it cannot run here.
    fn send(self, n: u64, message: String) -> bool {
        self.start();
        let sent = self
            .inner
            .with_value(|w| w.client.as_ref().map(|c| c.send(message)))
            .is_some();
        if sent {
            self.inner.update_value(|w| w.sent |= w.latest == n);
        } else if self.waiting_for(n) {
            self.inner.update_value(|w| w.answered = true);
            let (tell, why) = self
                .inner
                .with_value(|w| (w.tell.clone(), w.gone.clone().unwrap_or_default()));
            tell(Answer::Gone(why));
        }
        sent
    }

    /// Asks now: `message` writes the request numbered as given. Returns
    /// its number, or `None` when the worker cannot run here.
    pub fn ask(self, message: impl FnOnce(u64) -> String) -> Option<u64> {
        let n = self.next();
        self.send(n, message(n)).then_some(n)
    }

    /// Asks once nothing newer has been asked for `delay`: answers to
    /// earlier requests are dropped at once, and `message` (`None`: nothing
    /// to ask) is written only when the request goes.
    pub fn ask_later(self, delay: Duration, message: impl FnOnce(u64) -> Option<String> + 'static) {
        let n = self.next();
        set_timeout(
            move || {
                if self.waiting_for(n)
                    && let Some(m) = message(n)
                {
                    self.send(n, m);
                }
            },
            delay,
        );
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
