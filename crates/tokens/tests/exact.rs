//! Our counts equal a reference o200k implementation (`bpe-openai`, itself tested equal to
//! tiktoken) on real prose and code, many scripts, random Unicode, whitespace edge cases
//! and hostile long runs.

fn reference(text: &str) -> usize {
    bpe_openai::o200k_base().count(text)
}

fn same(text: &str) {
    assert_eq!(
        mooring_tokens::count(text),
        reference(text),
        "{:?}",
        text.chars().take(120).collect::<String>()
    );
}

/// A small deterministic generator (no dependency needed for test data).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

#[test]
fn the_repository_own_text_counts_the_same() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut files = 0;
    for rel in [
        "README.md",
        "docs/architecture.md",
        "crates/core/src/memory/preamble.rs",
        "ui/dashboard.html",
        "Cargo.lock",
    ] {
        let Ok(text) = std::fs::read_to_string(format!("{root}/{rel}")) else { continue };
        files += 1;
        same(&text);
        for line in text.lines().take(400) {
            same(line);
        }
    }
    assert!(files >= 3, "the corpus files exist");
}

#[test]
fn random_mixtures_of_scripts_spaces_digits_and_symbols_count_the_same() {
    let atoms = [
        "the",
        " quick",
        "Brown",
        "FOX",
        "'s",
        "'LL",
        "don't",
        " ",
        "  ",
        "   ",
        "\t",
        "\n",
        "\r\n",
        "\n\n",
        " \n ",
        "0",
        "12",
        "1234567",
        "3.14159",
        "—",
        "…",
        "«",
        "»",
        "!!",
        "?!",
        "==>",
        "/*",
        "*/",
        "//",
        "::",
        "->",
        "{}",
        "Straße",
        "ÆØÅ",
        "naïve",
        "日本語",
        "テキスト",
        "中文字符",
        "한국어",
        "Ελληνικά",
        "Кириллица",
        "עברית",
        "العربية",
        "हिन्दी",
        "ภาษาไทย",
        "🙂",
        "👩‍💻",
        "🇺🇳",
        "e\u{301}",
        "\u{200b}",
        "\u{a0}",
        "\u{3000}",
        "$",
        "#",
        "fn main() {",
        "    let x = 42;",
        "SELECT * FROM t;",
        "https://example.com/a?b=c",
        "CamelCaseWord",
        "snake_case",
    ];
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for _ in 0..3_000 {
        let n = 1 + rng.next() % 40;
        let text: String = (0..n).map(|_| rng.pick(&atoms)).collect();
        same(&text);
    }
}

#[test]
fn random_code_points_count_the_same() {
    let mut rng = Rng(42);
    for _ in 0..2_000 {
        let n = 1 + rng.next() % 30;
        let text: String = (0..n)
            .filter_map(|_| {
                let range =
                    [0x20..0x7f, 0x80..0x800, 0x800..0x3000, 0x3000..0xa000, 0x1f300..0x1fa00, 0x09..0x0e];
                let r = &range[(rng.next() % range.len() as u64) as usize];
                char::from_u32(r.start + (rng.next() % (r.end - r.start) as u64) as u32)
            })
            .collect();
        same(&text);
    }
}

#[test]
fn long_hostile_runs_count_the_same() {
    for unit in ["=", "=-", "aa", "ab", " ", "\n", "😀", "1", "x.", "é"] {
        for n in [63, 64, 65, 200, 5_000, 40_000] {
            same(&unit.repeat(n));
        }
    }
    same("");
}
