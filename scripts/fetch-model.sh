#!/usr/bin/env bash
# Fetches the sentence-embedding model Mooring's recall by meaning uses: WordLlama's
# l2_supercat 256-dim static embeddings (token lookup and average pooling; MIT licence),
# as shipped inside the `wordllama` 0.4.0.post1 wheel on PyPI — never from a model hub.
# The wheel is pinned by its SHA-256; only the weights, the tokenizer and the licence are
# kept, in $MOORING_MODELS (default ~/.cache/mooring-models). Mooring works without it.
set -euo pipefail
root="${MOORING_MODELS:-$HOME/.cache/mooring-models}"
dest="$root/wordllama-l2-supercat-256"
wheel="wordllama-0.4.0.post1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
sha="42c2c88907ace0b0681ac6f9092d6a300a6409a5d2d61071a3fb5e7159370c97"
if [ -f "$dest/weights.safetensors" ] && [ -f "$dest/tokenizer.json" ]; then exit 0; fi
python3 -m pip --version >/dev/null 2>&1 || {
  echo "fetching the model needs pip (Debian/Ubuntu: sudo apt-get install python3-pip)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
  --platform manylinux2014_x86_64 -d "$tmp" wordllama==0.4.0.post1
echo "$sha  $tmp/$wheel" | sha256sum -c --quiet - || { echo "the wordllama wheel's checksum is not the pinned one" >&2; exit 1; }
mkdir -p "$dest.part"
python3 - "$tmp/$wheel" "$dest.part" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for src, dst in [("wordllama/weights/l2_supercat_256.safetensors", "weights.safetensors"),
                 ("wordllama/tokenizers/l2_supercat_tokenizer_config.json", "tokenizer.json"),
                 ("wordllama-0.4.0.post1.dist-info/licenses/LICENSE", "LICENSE")]:
    open(f"{sys.argv[2]}/{dst}", "wb").write(z.read(src))
PY
rm -rf "$dest"
mv "$dest.part" "$dest"
echo "model in $dest ($(du -sh "$dest" | cut -f1))"
