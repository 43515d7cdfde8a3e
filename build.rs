//! Generates what packing the .xpi needs: the manifest with the crate's
//! version. (The tools' JSON schemas are written by the packer, which links
//! ext-core normally: as a build dependency too, its cdylib would be built
//! twice under one name.)

use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=manifest.json");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let text = fs::read_to_string("manifest.json").expect("manifest.json is missing");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&text).expect("manifest.json is not valid JSON");
    manifest["version"] = env::var("CARGO_PKG_VERSION").expect("version").into();
    fs::write(
        out.join("manifest.json"),
        serde_json::to_string_pretty(&manifest).expect("serialize"),
    )
    .expect("write manifest");
}
