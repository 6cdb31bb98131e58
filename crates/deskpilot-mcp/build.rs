//! The shipped packs (`packs/`) are built into the binary: a change to them rebuilds it.

fn main() {
    println!("cargo:rerun-if-changed=../../packs");
}
