//! Trunk's entry point for "Your own session" (`session.html`).

// Smaller and faster than the default allocator in WebAssembly.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    #[cfg(target_arch = "wasm32")]
    drift_web::app::start_session();
}
