//! Packs the extension: `static/`, the generated manifest and tool schemas,
//! and the wasm-bindgen output, into an unpacked folder (for `web-ext lint`)
//! and a reproducible `.xpi`.
//!
//! Usage: pack --pkg DIR --dir OUT_DIR --xpi OUT.xpi [--model ID=MODEL_DIR …]
//!
//! Each `--model` bundles a converted model directory (config.json,
//! tokenizer.json and its weights) as `models/ID/`, loaded with no download.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

const MANIFEST: &str = include_str!(concat!(env!("OUT_DIR"), "/manifest.json"));

fn main() {
    if let Err(e) = run() {
        eprintln!("pack: {e}");
        std::process::exit(1);
    }
}

fn arg(args: &[String], name: &str) -> Result<PathBuf, String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .ok_or_else(|| format!("missing {name}; usage: pack --pkg DIR --dir OUT_DIR --xpi OUT.xpi"))
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (pkg, dir, xpi) = (
        arg(&args, "--pkg")?,
        arg(&args, "--dir")?,
        arg(&args, "--xpi")?,
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("manifest.json".into(), MANIFEST.as_bytes().to_vec()),
        (
            "tool-schemas.json".into(),
            serde_json::to_vec_pretty(&ext_core::tools::schemas()).map_err(|e| e.to_string())?,
        ),
    ];
    collect(&root.join("static"), "", &mut files)?;
    for (i, a) in args.iter().enumerate() {
        if a != "--model" {
            continue;
        }
        let spec = args.get(i + 1).ok_or("--model needs ID=DIR")?;
        let (id, dir) = spec.split_once('=').ok_or("--model needs ID=DIR")?;
        ext_worker::models::check_id(id).map_err(|e| e.message)?;
        for entry in read_dir(Path::new(dir))? {
            let name = entry.file_name().to_string_lossy().to_string();
            let weights = name == "model.safetensors" || name.ends_with(".gguf");
            if weights || name == "config.json" || name == "tokenizer.json" {
                files.push((format!("models/{id}/{name}"), read(&entry.path())?));
            }
        }
    }
    // Models under static/models/ (`make model`): listed for the options
    // page, since an extension cannot list its own files.
    let paths: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    let bundled = ext_worker::models::bundled_index(&paths);
    if !bundled.is_empty() {
        let index = serde_json::to_vec(&bundled).map_err(|e| e.to_string())?;
        files.push((ext_worker::models::BUNDLED_INDEX.into(), index));
    }
    for entry in read_dir(&pkg)? {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.ends_with(".js") || name.ends_with(".wasm") {
            files.push((format!("pkg/{name}"), read(&entry.path())?));
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));

    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    for (name, bytes) in &files {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap_or(&dir)).map_err(|e| e.to_string())?;
        fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }

    if let Some(parent) = xpi.parent() {
        fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let file = fs::File::create(&xpi).map_err(|e| format!("{}: {e}", xpi.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    // A fixed timestamp makes the .xpi depend only on its contents.
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    for (name, bytes) in &files {
        zip.start_file(name.as_str(), options)
            .map_err(|e| e.to_string())?;
        zip.write_all(bytes).map_err(|e| e.to_string())?;
    }
    zip.finish().map_err(|e| e.to_string())?;
    let size = fs::metadata(&xpi).map(|m| m.len()).unwrap_or(0);
    println!(
        "packed {} files into {} ({} KiB)",
        files.len(),
        xpi.display(),
        size / 1024
    );
    Ok(())
}

fn read_dir(dir: &Path) -> Result<Vec<fs::DirEntry>, String> {
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(|e| e.file_name());
    Ok(entries)
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), String> {
    for entry in read_dir(dir)? {
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.path().is_dir() {
            collect(&entry.path(), &format!("{name}/"), out)?;
        } else {
            out.push((name, read(&entry.path())?));
        }
    }
    Ok(())
}
