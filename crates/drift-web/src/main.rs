//! Trunk's entry point: mounts the page.

fn main() {
    #[cfg(target_arch = "wasm32")]
    drift_web::app::start();
}
