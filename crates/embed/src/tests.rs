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

#[test]
fn the_tokenizer_s_compact_form_tokenizes_as_the_json_and_is_read_only_when_whole_and_current() {
    // A folder of its own: the other tests share `tempfile_dir()` and remove it.
    let dir = std::env::temp_dir().join(format!("mooring-embed-compact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = model_dir();
    std::os::unix::fs::symlink(model.join("weights.safetensors"), dir.join("weights.safetensors")).unwrap();
    std::fs::copy(model.join("tokenizer.json"), dir.join("tokenizer.json")).unwrap();
    let texts = ["How often do we refresh the leader's lease?", "naïve café ☃ 東京 <0x41>", "", "   a  b "];
    let from_json = Model::load(&dir).unwrap();
    let compact = dir.join("tokenizer.mooring");
    assert!(compact.is_file(), "the first load leaves the compact form");
    let from_compact = Model::load(&dir).unwrap();
    for t in texts {
        assert_eq!(from_json.tokens(t), from_compact.tokens(t), "{t:?}");
    }
    // What the load reads, checked directly: whole and made from this tokenizer only.
    let bytes = std::fs::read(&compact).unwrap();
    let json = std::fs::read_to_string(dir.join("tokenizer.json")).unwrap();
    let bpe = crate::bpe::Bpe::from_json(&json).unwrap();
    let meta = std::fs::metadata(dir.join("tokenizer.json")).unwrap();
    let nanos = meta.modified().unwrap().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64;
    let key = [meta.len(), nanos];
    assert!(crate::bpe::Bpe::from_compact(&bytes, key).is_some());
    assert!(crate::bpe::Bpe::from_compact(&bytes, [key[0] + 1, key[1]]).is_none(), "another tokenizer's");
    assert!(crate::bpe::Bpe::from_compact(&bytes[..bytes.len() - 4], key).is_none(), "cut short");
    assert!(crate::bpe::Bpe::from_compact(&bpe.to_compact(key)[..200], key).is_none(), "cut shorter");
    // A damaged compact form is passed over: the JSON is read and the form made again.
    std::fs::write(&compact, &bytes[..bytes.len() / 2]).unwrap();
    let again = Model::load(&dir).unwrap();
    assert_eq!(again.tokens(texts[0]), from_json.tokens(texts[0]));
    assert_eq!(std::fs::read(&compact).unwrap().len(), bytes.len(), "made whole again");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_text_s_vector_is_its_rows_widened_one_half_at_a_time_summed_and_scaled() {
    let model = Model::load(&model_dir()).unwrap_or_else(|e| panic!("{e}: run scripts/fetch-model.sh"));
    let text = "Renewal cadence: every 5 s, TTL 15 s";
    let table = &model.weights[model.table.clone()];
    let mut want = vec![0f32; model.dim];
    for id in model.tokens(text) {
        let row = &table[id as usize * model.dim * 2..(id as usize + 1) * model.dim * 2];
        for (o, v) in want.iter_mut().zip(row.chunks_exact(2)) {
            *o += half::f16::from_bits(u16::from_le_bytes([v[0], v[1]])).to_f32();
        }
    }
    let norm = want.iter().map(|v| v * v).sum::<f32>().sqrt();
    want.iter_mut().for_each(|v| *v /= norm);
    assert_eq!(model.embed(text), want, "the same bits as the scalar widening");
}
