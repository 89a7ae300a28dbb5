//! Lays out the `mooring` binary so a running server keeps less of it in memory.
//!
//! The kernel maps a program's code 64 KB around each page it runs (fault-around), so a
//! stdio server that runs 3.5 MB of functions scattered over 22 MB of code kept 17 MB of
//! it resident. `link/hot-functions.txt` lists the functions a stdio session runs
//! (recorded by `scripts/hot-functions.sh`; `hot-functions-release.txt`, where present,
//! the release profile's), and the link puts them side by side:
//! - a linker script gathers them, by name without the hash, in a section before the
//!   rest of the code. The hash changes with the toolchain, the profile and the features,
//!   so this holds across builds, at the cost of taking every generic instance of a name
//!   (8.8 MB, of which 3.5 MB ran);
//! - with rust-lld, the same names with their hash (a symbol ordering file) put the
//!   instances that ran first in that section, for builds whose hashes match the
//!   recording's (same toolchain, profile and dependencies as `scripts/start.sh`).
//!
//! A function missing from the list is only left where it would have been anyway. On a
//! glibc that reads them (2.36 and later), relative relocations are also packed
//! (`-z pack-relative-relocs`): 2 MB of relocation records, all read at every start,
//! become 19 KB. `MOORING_PLAIN_LINK=1` links without any of this.

use std::{env, fs, path::PathBuf, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=link");
    println!("cargo:rerun-if-env-changed=MOORING_PLAIN_LINK");
    println!("cargo:rerun-if-env-changed=RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
    let var = |k: &str| env::var(k).unwrap_or_default();
    // Test and dev builds (PROFILE "debug") link as they always have.
    if var("MOORING_PLAIN_LINK") == "1"
        || var("CARGO_CFG_TARGET_OS") != "linux"
        || var("PROFILE") != "release"
    {
        return;
    }
    // The start profile's recording, and the release profile's where there is one.
    let lists: Vec<String> = ["link/hot-functions.txt", "link/hot-functions-release.txt"]
        .iter()
        .filter_map(|f| fs::read_to_string(f).ok())
        .collect();
    let names: Vec<&str> = lists
        .iter()
        .flat_map(|l| l.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let out = PathBuf::from(var("OUT_DIR"));
    let (script, order) = (out.join("hot.ld"), out.join("hot.order"));
    fs::write(&script, linker_script(&names)).expect("OUT_DIR is writable");
    fs::write(&order, names.join("\n")).expect("OUT_DIR is writable");
    println!("cargo:rustc-link-arg-bin=mooring=-Wl,-T,{}", script.display());
    if links_with_lld() {
        // Names this build does not have (other hashes) are skipped quietly.
        println!("cargo:rustc-link-arg-bin=mooring=-Wl,--symbol-ordering-file={}", order.display());
        println!("cargo:rustc-link-arg-bin=mooring=-Wl,--no-warn-symbol-ordering");
    }
    if var("CARGO_CFG_TARGET_ENV") == "gnu" && var("TARGET") == var("HOST") && glibc_reads_relr() {
        println!("cargo:rustc-link-arg-bin=mooring=-Wl,-z,pack-relative-relocs");
    }
}

/// Whether the link is by rust-lld, which takes a symbol ordering file: the default for
/// x86_64 Linux since Rust 1.90, unless the build names its own linker.
fn links_with_lld() -> bool {
    let own_linker = env::vars().any(|(k, v)| {
        (k.starts_with("CARGO_TARGET_") && k.ends_with("_LINKER"))
            || (k == "CARGO_ENCODED_RUSTFLAGS" && (v.contains("linker") || v.contains("fuse-ld")))
    });
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("-vV").output() else { return false };
    let text = String::from_utf8_lossy(&out.stdout);
    let minor = text
        .lines()
        .find_map(|l| l.strip_prefix("release: "))
        .and_then(|v| v.split('.').nth(1))
        .and_then(|m| m.parse::<u32>().ok())
        .unwrap_or(0);
    !own_linker && env::var("TARGET").is_ok_and(|t| t == "x86_64-unknown-linux-gnu") && minor >= 90
}

/// A script that adds one output section, `.text.hot`, before `.text` and leaves the rest
/// of the default layout alone (`INSERT`). Functions are in `.text.NAME`, or in
/// `.text.unlikely.NAME` when marked cold (growing a vector, a first initialisation).
///
/// All patterns are one input section description: the linker orders sections by the
/// symbol ordering file within a description, not across descriptions.
fn linker_script(names: &[&str]) -> String {
    let mut out = String::from("SECTIONS\n{\n  .text.hot : {\n    *(\n");
    let mut seen = std::collections::HashSet::new();
    for name in names {
        // A legacy-mangled name ends in `17h`, 16 hex digits of hash, and `E`.
        let hashed = name.len().checked_sub(17).and_then(|at| Some((name.get(..at)?, name.get(at..)?)));
        let name = match hashed {
            Some((stem, hash))
                if stem.ends_with("17h")
                    && hash.ends_with('E')
                    && hash[..16].bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                format!("{stem}*")
            }
            _ => name.to_string(),
        };
        if seen.insert(name.clone()) {
            out.push_str(&format!("      .text.{name} .text.unlikely.{name}\n"));
        }
    }
    out.push_str("    )\n  }\n}\nINSERT BEFORE .text;\n");
    out
}

/// Whether this machine's glibc resolves packed relocations (`DT_RELR`, glibc 2.36).
fn glibc_reads_relr() -> bool {
    let Ok(out) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else { return false };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(version) = text.trim().strip_prefix("glibc ") else { return false };
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (2, 36)
}
