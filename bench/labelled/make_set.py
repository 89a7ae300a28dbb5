#!/usr/bin/env python3
"""Builds Mooring's labelled set for search quality: memory entries across several
projects and questions with the entry each is answered by, half of them paraphrases that
share no content word with their answer (checked here, not assumed).

Each entry ties two project concepts with a relation ("we decided that the rate limiter
must go through the message queue"); each concept and each relation has two wordings
that share no content word: entries and exact-word questions use the first, paraphrases
the second. A concept pair appears once per project, so each question has one answer in
the project it is asked in. Deterministic (seeded): `python3 bench/labelled/make_set.py`
rewrites bench/labelled/set.json identically.
"""
import json
import random
import re
import sys
from pathlib import Path

CONCEPTS = [
    ("leader election", "choosing the primary node"),
    ("lease renewal", "refreshing ownership before expiry"),
    ("retry policy", "attempts before giving up"),
    ("rate limiter", "request throttling"),
    ("message queue", "job broker"),
    ("database migration", "schema upgrade"),
    ("connection pool", "reused sockets"),
    ("backup schedule", "nightly snapshot timing"),
    ("error logging", "recording failures"),
    ("metrics dashboard", "monitoring charts"),
    ("feature flags", "toggles for unreleased functionality"),
    ("dark mode", "night theme"),
    ("font size", "text scale"),
    ("mobile layout", "phone screens"),
    ("image upload", "picture submission"),
    ("thumbnail generation", "small preview creation"),
    ("email notifications", "mail alerts"),
    ("time zones", "regional clocks"),
    ("currency conversion", "exchanging money between countries"),
    ("tax calculation", "levy computation"),
    ("shopping cart", "basket of goods"),
    ("checkout flow", "purchase steps"),
    ("refund handling", "giving buyers their money back"),
    ("support tickets", "help desk requests"),
    ("access tokens", "bearer credentials"),
    ("API keys", "secret strings for integrations"),
    ("encryption at rest", "scrambling stored bytes"),
    ("TLS certificates", "HTTPS trust chain"),
    ("audit trail", "history of who changed what"),
    ("build pipeline", "continuous integration jobs"),
    ("release notes", "changelog"),
    ("docker images", "container bundles"),
    ("kubernetes deployment", "cluster rollout"),
    ("memory leak", "growing heap usage"),
    ("slow queries", "sluggish lookups"),
    ("test coverage", "portion of lines exercised"),
    ("flaky tests", "unreliable checks"),
    ("code review", "peer inspection of changes"),
    ("onboarding guide", "newcomer handbook"),
    ("translation files", "localized strings"),
    ("date formatting", "calendar display"),
    ("search ranking", "result ordering"),
    ("spam filter", "junk detection"),
    ("storage bucket", "object blob container"),
    ("websocket connection", "live duplex channel"),
    ("offline mode", "working without network"),
    ("sync conflicts", "diverging edits"),
    ("undo history", "reverting previous actions"),
    ("keyboard shortcuts", "hotkeys"),
    ("accessibility audit", "screen reader review"),
    ("load balancer", "traffic distributor"),
    ("cache invalidation", "purging stale copies"),
    ("configuration file", "settings document"),
    ("environment variables", "process-level knobs"),
    ("cron job", "periodic task"),
    ("GPU inference", "graphics card predictions"),
    ("data export", "downloadable archive"),
    ("GDPR deletion", "erasing personal information on request"),
    ("analytics events", "usage telemetry"),
    ("pricing tiers", "subscription plans"),
    ("trial period", "free evaluation weeks"),
]

# (kind, entry wording, paraphrase question wording); {a} and {b} are the concepts.
RELATIONS = [
    ("decision", "We decided that the {a} must go through the {b}.", "Should {a} be routed via {b}?"),
    ("note", "The {a} broke because of the {b}; fixed by pinning versions.", "What caused an outage in {a} related to {b}?"),
    ("blocker", "Blocker: the {a} waits on the {b} until the vendor replies.", "Why is {a} stuck behind {b}?"),
    ("note", "The {a} is owned by the platform team, along with the {b}.", "Who looks after {a} and {b}?"),
    ("decision", "The {a} now uses the {b} after the spring rewrite.", "Does {a} depend on {b} these days?"),
    ("summary", "Summary: {a} and {b} were benchmarked; latency dropped by half.", "Any measurements comparing {a} with {b}?"),
    ("note", "Handover: finish wiring the {a} into the {b} tomorrow.", "What remains for connecting {a} to {b}?"),
    ("decision", "Disable the {a} whenever the {b} is degraded.", "Is {a} turned off during {b} trouble?"),
]

DETAILS = ["Ticket {n}.", "Agreed with Priya on day {n}.", "See PR {n}.", "Measured at {n} ms.", "Budget {n} EUR.",
           "Owner: team {n}.", "Raised in standup {n}.", "Tracked as item {n}."]

PROJECTS = ["atlas", "beacon", "cobalt", "delta", "ember"]
PER_PROJECT = 420
QUERIES_PER_HALF = 125

STOP = set("""a an the of to in on for with by at from and or is are was were be been it its this that these
those we our you your who what why how when where which any do does did should would could can will
now then after before until about into via between behind during whenever along there their them
than too very just up off out over under again still same each every per some more most no not
""".split())


def stem(w):
    w = w.lower()
    for suf in ("ing", "ed", "es", "s"):
        if len(w) > len(suf) + 2 and w.endswith(suf):
            return w[: -len(suf)]
    return w


def content_words(text):
    return {stem(w) for w in re.findall(r"[A-Za-z0-9]+", text) if w.lower() not in STOP and not w.isdigit()}


def main():
    rng = random.Random(29)
    entries, queries = [], []
    pairs = [(i, j) for i in range(len(CONCEPTS)) for j in range(len(CONCEPTS)) if i < j]
    for project in PROJECTS:
        chosen = rng.sample(pairs, PER_PROJECT)
        for i, j in chosen:
            if rng.random() < 0.5:
                i, j = j, i
            kind, entry_t, para_t = rng.choice(RELATIONS)
            text = entry_t.format(a=CONCEPTS[i][0], b=CONCEPTS[j][0])
            text = text[0].upper() + text[1:] + " " + rng.choice(DETAILS).format(n=rng.randint(10, 999))
            entries.append({"id": len(entries), "project": project, "kind": kind, "content": text,
                            "pair": [i, j], "para": para_t})
    by_project = {p: [e for e in entries if e["project"] == p] for p in PROJECTS}
    # Exact-word questions: the two concepts' own words (what a person types into a search).
    # Paraphrases: the relation's other wording with the concepts' other wording.
    half = 0
    tried = set()
    while half < QUERIES_PER_HALF:
        e = rng.choice(entries)
        if e["id"] in tried:
            continue
        tried.add(e["id"])
        i, j = e["pair"]
        q = e["para"].format(a=CONCEPTS[i][1], b=CONCEPTS[j][1])
        shared = content_words(q) & content_words(e["content"])
        if shared:
            continue
        queries.append({"project": e["project"], "query": q, "relevant": [e["id"]], "paraphrase": True})
        half += 1
    exact = 0
    while exact < QUERIES_PER_HALF:
        e = rng.choice(entries)
        i, j = e["pair"]
        q = f"{CONCEPTS[i][0]} {CONCEPTS[j][0]}"
        # Exact questions must share their words with the answer (they do by construction).
        assert content_words(q) <= content_words(e["content"]), q
        queries.append({"project": e["project"], "query": q, "relevant": [e["id"]], "paraphrase": False})
        exact += 1
    for e in entries:
        del e["pair"], e["para"]
    for p, es in by_project.items():
        assert len(es) == PER_PROJECT, p
    out = {"about": "Generated by bench/labelled/make_set.py; do not edit by hand.",
           "entries": entries, "queries": queries}
    path = Path(__file__).with_name("set.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(entries)} entries in {len(PROJECTS)} projects, {len(queries)} queries "
          f"({QUERIES_PER_HALF} paraphrases) -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
