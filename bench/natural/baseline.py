#!/usr/bin/env python3
"""The plain BM25 baseline for the natural-question set, by an implementation that is not
Mooring's: `rank_bm25`'s Okapi BM25 (k1 1.5, b 0.75, IDF) over each project's entries,
lowercased words, NLTK's English stop words removed, query words ORed, no stemming.

Writes bench/natural/baseline.json: the rank of each question's first answer (null past
ten) and R@1, R@5, R@10 and MRR per split and per question type, which the `quality`
bench prints beside Mooring's and the guard test compares against.
`pip install rank_bm25==0.2.2` first.
"""
import hashlib
import json
import re
from pathlib import Path

from rank_bm25 import BM25Okapi

# NLTK's English stop-word list (nltk.corpus.stopwords.words("english")).
STOP = set("""i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
yourselves he him his himself she she's her hers herself it it's its itself they them their theirs
themselves what which who whom this that that'll these those am is are was were be been being have has
had having do does did doing a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up down in out on off over under
again further then once here there when where why how all any both each few more most other some such no
nor not only own same so than too very s t can will just don don't should should've now d ll m o re ve y
ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn
isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren
weren't won won't wouldn wouldn't""".split())


def tokens(text):
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP]


def main():
    here = Path(__file__).parent
    raw = (here / "set.json").read_bytes()
    data = json.loads(raw)
    by_project = {}
    for e in data["entries"]:
        by_project.setdefault(e["project"], []).append(e)
    index = {p: (BM25Okapi([tokens(e["content"]) for e in es]), es) for p, es in by_project.items()}
    ranks = []
    for q in data["queries"]:
        bm25, es = index[q["project"]]
        scores = bm25.get_scores(tokens(q["query"]))
        # Ties broken by position (older first), as a stable sort does; entries with no
        # shared word score 0 and are never hits.
        order = sorted(range(len(es)), key=lambda i: -scores[i])
        top = [es[i]["id"] for i in order[:10] if scores[i] > 0]
        rank = next((r for r, i in enumerate(top) if i in q["relevant"]), None)
        ranks.append(rank)
    groups = {}
    for q, rank in zip(data["queries"], ranks):
        for key in (f"{q['split']}/all", f"{q['split']}/{q['type']}"):
            g = groups.setdefault(key, {"n": 0, "r1": 0.0, "r5": 0.0, "r10": 0.0, "mrr": 0.0})
            g["n"] += 1
            if rank is not None:
                g["r1"] += rank < 1
                g["r5"] += rank < 5
                g["r10"] += rank < 10
                g["mrr"] += 1 / (rank + 1)
    for g in groups.values():
        for k in ("r1", "r5", "r10", "mrr"):
            g[k] = round(g[k] / g["n"], 4)
    out = {"about": "Written by bench/natural/baseline.py (rank_bm25 0.2.2 BM25Okapi); do not edit by hand.",
           "set_sha256": hashlib.sha256(raw).hexdigest(), "ranks": ranks, "groups": dict(sorted(groups.items()))}
    (here / "baseline.json").write_text(json.dumps(out, indent=1) + "\n")
    for key in ("tune/all", "held/all"):
        g = groups[key]
        print(f"{key}: n {g['n']} R@1 {g['r1']:.3f} R@5 {g['r5']:.3f} R@10 {g['r10']:.3f} MRR {g['mrr']:.3f}")
    for key, g in sorted(groups.items()):
        if key.startswith("held/"):
            print(f"  {key}: R@5 {g['r5']:.3f} MRR {g['mrr']:.3f}")


if __name__ == "__main__":
    main()
