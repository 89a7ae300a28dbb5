//! On the real model, as `scripts/fetch-model.sh` installs it (the test tier installs it
//! with the other test tools; `MOORING_MODELS` says where).

use std::path::PathBuf;

use super::{Model, cosine};

fn model_dir() -> PathBuf {
    crate::models_root().join(crate::STATIC_MODEL)
}

#[test]
fn a_paraphrase_is_nearer_than_an_unrelated_entry() {
    let dir = model_dir();
    let model = Model::load(&dir).unwrap_or_else(|e| panic!("{e}: run scripts/fetch-model.sh"));
    assert_eq!(model.dim(), 256);
    let q = model.embed("How often do we refresh the leader's lease?");
    let answer = model.embed("Renewal cadence: every 5 s, TTL 15 s");
    let unrelated = model.embed("The invoice PDF uses the customer's billing address");
    assert!((cosine(&q, &q) - 1.0).abs() < 1e-4, "unit length");
    assert!(
        cosine(&q, &answer) > cosine(&q, &unrelated),
        "lease/renewal {} vs invoice {}",
        cosine(&q, &answer),
        cosine(&q, &unrelated)
    );
    assert!(model.embed("").iter().all(|v| *v == 0.0), "nothing to average is no direction");
}

#[test]
fn missing_or_damaged_files_are_errors_that_name_the_file() {
    let empty = tempfile_dir();
    let err = Model::load(&empty).err().unwrap().to_string();
    assert!(err.contains("weights.safetensors"), "{err}");
    std::fs::write(empty.join("weights.safetensors"), b"not a safetensors file").unwrap();
    let err = Model::load(&empty).err().unwrap().to_string();
    assert!(err.contains("not usable"), "{err}");
    std::fs::remove_dir_all(&empty).unwrap();
}

fn tempfile_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("mooring-embed-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn the_tokenizer_gives_the_ids_the_reference_tokenizer_gives() {
    let dir = model_dir();
    let model = Model::load(&dir).unwrap_or_else(|e| panic!("{e}: run scripts/fetch-model.sh"));
    let reference = tokenizers::Tokenizer::from_file(dir.join("tokenizer.json")).unwrap();
    let texts = [
        "How often do we refresh the leader's lease?",
        "Renewal cadence: every 5 s, TTL 15 s",
        "  two  spaces, a tab\tand a newline\nhere",
        "Ünïcödé, emoji 🚢 and 中文 mixed with snake_case_names and CamelCase",
        "fn main() { println!(\"{}\", x.iter().map(|v| v * 2).sum::<i32>()); }",
        "",
        "▁already a marker",
        "Leader election: leases live in etcd with a 15 s TTL and are renewed every 5 s; \
         a leader that misses two renewals steps down.",
    ];
    for text in texts {
        let want = reference.encode(text, false).unwrap().get_ids().to_vec();
        assert_eq!(model.tokens(text), want, "{text:?}");
    }
}
