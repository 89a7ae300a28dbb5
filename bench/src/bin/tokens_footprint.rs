//! What loading an o200k counter costs a process: time to the first count and resident
//! memory after it, for Mooring's counter or (`--reference`) `bpe-openai`. One process
//! per measurement, since neither can be unloaded.

use std::time::Instant;

fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() {
    let reference = std::env::args().any(|a| a == "--reference");
    let before = rss_kb();
    let t = Instant::now();
    let n = if reference {
        bpe_openai::o200k_base().count("Hello, world")
    } else {
        mooring_tokens::count("Hello, world")
    };
    let load = t.elapsed();
    let after = rss_kb();
    println!(
        "{}: first count {:.1} ms, RSS {:.1} MB -> {:.1} MB (+{:.1} MB), {n} tokens",
        if reference { "bpe-openai" } else { "mooring-tokens" },
        load.as_secs_f64() * 1e3,
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        (after - before) as f64 / 1024.0
    );
}
