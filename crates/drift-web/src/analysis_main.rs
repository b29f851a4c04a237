//! Trunk's entry point for the simulator's analysis worker (a Web Worker the
//! simulator starts; see `drift_web::worker`).

// Smaller and faster than the default allocator in WebAssembly.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    #[cfg(target_arch = "wasm32")]
    drift_web::worker::start(drift_web::worker::reply);
}
