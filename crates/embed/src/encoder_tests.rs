//! The re-ranking encoder on the real model, as `scripts/fetch-model.sh --reranker`
//! installs it (the test tier installs it; `MOORING_MODELS` says where).

use std::path::PathBuf;

use super::Encoder;
use crate::cosine;

fn encoder_dir() -> PathBuf {
    crate::models_root().join(crate::ENCODER_MODEL)
}

fn encoder() -> Encoder {
    Encoder::load(&encoder_dir()).unwrap_or_else(|e| panic!("{e}: run scripts/fetch-model.sh --reranker"))
}

#[test]
fn vectors_are_the_ones_candle_computes_from_the_same_weights() {
    // The first six values candle-transformers 0.11.1's BertModel gave for these texts
    // (mean pooled, normalized), computed once outside the tree.
    let want: [(&str, [f32; 6]); 3] = [
        ("How do I renew the lease?", [0.028682, -0.011208, -0.008310, 0.019940, -0.100413, -0.011748]),
        (
            "Décidé: le café reste fermé le lundi — ça coûte trop cher!",
            [0.015173, 0.051203, 0.016706, 0.026382, -0.002311, 0.080806],
        ),
        (
            "The cron job moves from Helm to NATS because costs doubled last quarter; Chloe owns it (see PR #412).",
            [-0.041984, 0.006384, -0.004440, -0.065568, 0.071710, 0.025563],
        ),
    ];
    let e = encoder();
    for (text, first) in want {
        let v = e.embed(text);
        assert_eq!(v.len(), 384);
        for (got, want) in v.iter().zip(first) {
            assert!((got - want).abs() < 1e-4, "{text:?}: {:?} vs {first:?}", &v[..6]);
        }
    }
    let q = e.embed("How do I renew the lease?");
    let (para, other) = (e.embed("Lease renewal steps"), e.embed("The cat sat on the mat"));
    // candle: 0.7727 and 0.1061.
    assert!((cosine(&q, &para) - 0.7727).abs() < 1e-3 && (cosine(&q, &other) - 0.1061).abs() < 1e-3);
}

#[test]
fn wordpiece_gives_the_ids_the_reference_tokenizer_gives() {
    let dir = encoder_dir();
    let e = encoder();
    let mut reference = tokenizers::Tokenizer::from_file(dir.join("tokenizer.json")).unwrap();
    reference.with_padding(None);
    reference
        .with_truncation(Some(tokenizers::TruncationParams { max_length: 256, ..Default::default() }))
        .unwrap();
    let long = "lease ".repeat(300);
    let texts = [
        "How often do we refresh the leader's lease?",
        "  two  spaces, a tab\tand a newline\nhere",
        "Ünïcödé, emoji 🚢 and 中文 mixed with snake_case_names and CamelCase",
        "fn main() { println!(\"{}\", x.iter().map(|v| v * 2).sum::<i32>()); }",
        "",
        "a\u{0}control\u{7}char, «guillemets», ¿qué? naïve façade — Ωmega ﬁ ligature",
        "supercalifragilisticexpialidociousantidisestablishmentarianismfloccinaucinihilipilificationpneumonoultramicroscopicsilicovolcanoconiosis",
        &long,
    ];
    for text in texts {
        let want = reference.encode(text, true).unwrap().get_ids().to_vec();
        assert_eq!(e.tokens(text), want, "{text:?}");
    }
}

#[test]
fn a_missing_encoder_is_an_error_that_names_the_file() {
    let err = Encoder::load(std::path::Path::new("/nonexistent/mooring")).err().unwrap().to_string();
    assert!(err.contains("model.safetensors"), "{err}");
}
