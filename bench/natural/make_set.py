#!/usr/bin/env python3
"""Builds Mooring's natural-question set: memory as it piles up in real projects and the
questions people and agents type about it, each with the entries that answer it.

The memory of each project: decisions, blockers, notes, handovers and captured session
records about the project's parts (each part has an everyday name and a second wording
that shares no word with it), dated, with the people involved; restatements and
superseded decisions that share most words with what they replace (near-duplicates);
and short chatty entries ("Thanks, that works!") that say nothing, as captured prompts
do. The questions come in the forms people and agents use: what / when / why / who
questions full of stop words, status questions, paraphrases that share no content word
with their answer (checked here, not assumed), multi-hop questions whose evidence is two
entries, one-word lookups, an agent's keyword strings and questions about the last
session. Every question is assigned to the `tune` half or the `held` half (reported
only, never tuned on).

Deterministic (seeded): `python3 bench/natural/make_set.py` rewrites
bench/natural/set.json identically.
"""
import json
import random
import re
import sys
from pathlib import Path

# A part of a project: (everyday name, wording sharing no word with it, file stem).
PARTS = [
    ("leader election", "choosing the primary node", "election"),
    ("lease renewal", "refreshing ownership before expiry", "lease"),
    ("retry policy", "attempts before giving up", "retry"),
    ("rate limiter", "request throttling", "ratelimit"),
    ("message queue", "job broker", "queue"),
    ("database migration", "schema upgrade", "migrate"),
    ("connection pool", "reused sockets", "pool"),
    ("backup schedule", "nightly snapshot timing", "backup"),
    ("error logging", "recording failures", "errors"),
    ("metrics dashboard", "monitoring charts", "metrics"),
    ("feature flags", "toggles for unreleased functionality", "flags"),
    ("dark mode", "night theme", "theme"),
    ("mobile layout", "phone screens", "layout"),
    ("image upload", "picture submission", "upload"),
    ("thumbnail generation", "small preview creation", "thumbs"),
    ("email notifications", "mail alerts", "mailer"),
    ("time zones", "regional clocks", "tz"),
    ("currency conversion", "exchanging money between countries", "fx"),
    ("tax calculation", "levy computation", "tax"),
    ("shopping cart", "basket of goods", "cart"),
    ("checkout flow", "purchase steps", "checkout"),
    ("refund handling", "giving buyers their money back", "refunds"),
    ("support tickets", "help desk requests", "tickets"),
    ("access tokens", "bearer credentials", "tokens"),
    ("encryption at rest", "scrambling stored bytes", "crypt"),
    ("TLS certificates", "HTTPS trust chain", "certs"),
    ("audit trail", "history of who changed what", "audit"),
    ("build pipeline", "continuous integration jobs", "ci"),
    ("release notes", "changelog", "release"),
    ("docker images", "container bundles", "images"),
    ("memory leak", "growing heap usage", "heap"),
    ("slow queries", "sluggish lookups", "queries"),
    ("flaky tests", "unreliable checks", "flaky"),
    ("onboarding guide", "newcomer handbook", "onboarding"),
    ("translation files", "localized strings", "i18n"),
    ("search ranking", "result ordering", "ranking"),
    ("spam filter", "junk detection", "spam"),
    ("websocket connection", "live duplex channel", "socket"),
    ("offline mode", "working without network", "offline"),
    ("sync conflicts", "diverging edits", "sync"),
    ("keyboard shortcuts", "hotkeys", "keys"),
    ("load balancer", "traffic distributor", "lb"),
    ("cache invalidation", "purging stale copies", "cache"),
    ("cron job", "periodic task", "cron"),
    ("data export", "downloadable archive", "export"),
    ("GDPR deletion", "erasing personal information on request", "erase"),
    ("pricing tiers", "subscription plans", "pricing"),
    ("trial period", "free evaluation weeks", "trial"),
]

# A technology a part can move to: (name, what it is, in other words).
TECH = [
    ("Postgres", "the relational database"), ("Redis", "the in-memory store"), ("Kafka", "the event log"),
    ("SQLite", "the embedded database"), ("NATS", "the lightweight broker"), ("RabbitMQ", "the AMQP broker"),
    ("S3", "Amazon's object storage"), ("Cloudflare", "the CDN vendor"), ("Sentry", "the crash reporter"),
    ("Grafana", "the charting service"), ("Prometheus", "the scraper"), ("Stripe", "the payment processor"),
    ("Twilio", "the SMS vendor"), ("SendGrid", "the mail vendor"), ("Vault", "the secret manager"),
    ("Nginx", "the reverse proxy"), ("Envoy", "the sidecar proxy"), ("Temporal", "the workflow engine"),
    ("ClickHouse", "the column store"), ("Elasticsearch", "the full-text engine"), ("Tantivy", "the Rust index"),
    ("tokio", "the async runtime"), ("axum", "the web framework"), ("React", "the UI library"),
    ("Svelte", "the compiled UI framework"), ("Tailwind", "the utility CSS kit"), ("Playwright", "the browser driver"),
    ("GitHub Actions", "the hosted runners"), ("Buildkite", "the self-hosted runners"), ("Terraform", "the infra code tool"),
    ("Helm", "the chart packager"), ("Argo", "the rollout controller"), ("Celery", "the Python task runner"),
    ("Sidekiq", "the Ruby job runner"), ("Meilisearch", "the instant search server"), ("MinIO", "the self-hosted bucket"),
    ("DuckDB", "the analytical engine"), ("gRPC", "the binary RPC"), ("GraphQL", "the query API"),
    ("WebAuthn", "passkeys"),
]

PEOPLE = ["Priya", "Tomas", "Aiko", "Mehdi", "Sara", "Lena", "Kofi", "Jonas", "Mei", "Rafael", "Ines", "Oskar",
          "Nadia", "Dev", "Chloe", "Yusuf"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
REASONS = [
    ("it kept timing out under load", "it could not keep up when traffic peaked"),
    ("the licence changed", "the vendor's terms became a problem"),
    ("costs doubled last quarter", "the bill grew too much"),
    ("nobody on the team knew the old stack", "few of us understood the previous setup"),
    ("it lost writes during failover", "data went missing when a server died"),
    ("the vendor is sunsetting the old API", "the supplier is retiring its interface"),
    ("audits require it", "compliance reviews ask for it"),
    ("latency was above 300 ms", "responses took far too long"),
]
BREAKAGES = [
    ("duplicate rows showed up in the reports", "the reports counted things twice"),
    ("the nightly job started failing", "the overnight run kept crashing"),
    ("memory climbed to 4 GB", "the process bloated"),
    ("logins broke for Safari users", "people on Apple's browser could not sign in"),
    ("p99 latency tripled", "the slowest requests got much slower"),
    ("the staging deploy hung", "the pre-production rollout froze"),
]
COMMANDS = ["cargo test", "npm run build", "pytest -q", "git rebase main", "make lint", "cargo clippy",
            "docker compose up", "go test ./...", "pnpm test", "terraform plan"]
CHATTY = [
    "Thanks, that works!", "ok", "Sounds good, let's do that.", "Great job, ship it.", "Bye, talk tomorrow.",
    "Can you check again?", "yes please", "What do you think?", "Nice!", "Hmm, not sure about that.",
    "Let's continue tomorrow.", "Perfect, thank you so much!", "No, the other one.", "Try again.",
    "That's so nice! What else is left?", "Good morning!", "lgtm", "Wait, stop.", "Do it.", "Looks good to me",
    "Continue", "Why?", "Cool, and then?", "I'm back, where were we?", "Awesome work today 🎉",
]
PROJECTS = ["atlas", "beacon", "cobalt", "delta", "ember", "fjord"]
PARTS_PER_PROJECT = 40

STOP = set("""a an the of to in on for with by at from and or is are was were be been it its this that these
those we our you your who what why how when where which any do does did should would could can will
now then after before until about into via between behind during whenever along there their them
than too very just up off out over under again still same each every per some more most no not i me my
us he she his her they has have had last first next new old go went going get got s t""".split())


def stem(w):
    w = w.lower()
    for suf in ("ing", "ed", "es", "s", "e"):
        if len(w) > len(suf) + 2 and w.endswith(suf):
            return w[: -len(suf)]
    return w


def content_words(text):
    return {stem(w) for w in re.findall(r"[A-Za-z0-9]+", text) if w.lower() not in STOP and not w.isdigit()}


class Builder:
    def __init__(self, rng):
        self.rng = rng
        self.entries = []
        self.queries = []

    def add(self, project, kind, content):
        self.entries.append({"id": len(self.entries), "project": project, "kind": kind, "content": content})
        return len(self.entries) - 1

    def ask(self, project, kind, text, relevant, check_paraphrase=False, names=()):
        if check_paraphrase:
            allowed = {stem(n) for n in names}
            for r in relevant:
                if (content_words(text) & content_words(self.entries[r]["content"])) - allowed:
                    return False
        self.queries.append({"project": project, "type": kind, "query": text, "relevant": list(relevant)})
        return True


def date(rng):
    return f"{rng.randint(1, 28)} {rng.choice(MONTHS)}"


def project_memory(b, project):
    rng = b.rng
    parts = rng.sample(range(len(PARTS)), PARTS_PER_PROJECT)
    techs = rng.sample(range(len(TECH)), len(TECH))
    for n, p in enumerate(parts):
        name, other, stem_ = PARTS[p]
        tech, tech_other = TECH[techs[n % len(TECH)]]
        old_tech = TECH[techs[(n + 13) % len(TECH)]][0]
        who, fixer = rng.sample(PEOPLE, 2)
        reason, reason_other = rng.choice(REASONS)
        breakage, breakage_other = rng.choice(BREAKAGES)
        when = date(rng)
        moved = b.add(project, "decision",
                      f"Decided on {when}: the {name} moves from {old_tech} to {tech} because {reason}. {who} owns it.")
        # A near-duplicate from before, superseded, sharing the part and the old tech.
        b.add(project, "decision", f"For now the {name} stays on {old_tech}; revisit after the launch.")
        broke = b.add(project, "note",
                      f"After the switch to {tech}, {breakage}. {fixer} traced it to a missing index.")
        blocked = b.add(project, "blocker",
                        f"Blocked: {name} rollout waits until {fixer} gets access to the {tech} console.")
        handover = b.add(project, "handover",
                         f"Handover: {name} is half done in src/{stem_}.rs; next, finish the tests and ask {who} "
                         f"about the timeout.")
        cmd = rng.choice(COMMANDS)
        session = b.add(project, "session",
                        f"Asked: make the {name} use {tech}. Ran: {cmd} (3 times, 1 failed), git commit. "
                        f"Wrote: src/{stem_}.rs, tests/{stem_}_test.rs. Last: the {name} now talks to {tech}; "
                        f"one test still fails.")
        ticket = rng.randint(1000, 9999)
        note = b.add(project, "note",
                     f"{who} noticed the {name} retries twice on every cold start; ticket #{ticket}.")
        facts = dict(name=name, other=other, tech=tech, tech_other=tech_other, old=old_tech, who=who,
                     fixer=fixer, reason=reason, reason_other=reason_other, breakage=breakage,
                     breakage_other=breakage_other, when=when, stem=stem_, ticket=ticket)
        ids = dict(moved=moved, broke=broke, blocked=blocked, handover=handover, session=session, note=note)
        questions(b, project, facts, ids)
    for _ in range(PARTS_PER_PROJECT * 4):
        b.add(project, "note", rng.choice(CHATTY))
    # Reminders that name a technology or a person without being about any part.
    for n in range(PARTS_PER_PROJECT):
        tech = TECH[techs[n % len(TECH)]][0]
        b.add(project, "note", rng.choice([
            f"Reminder: the {tech} upgrade window is Friday evening.",
            f"{rng.choice(PEOPLE)} is out next week; ping {rng.choice(PEOPLE)} about {tech} questions.",
            f"The {tech} dashboard password rotates monthly; ask in the ops channel.",
        ]))


def questions(b, project, f, ids):
    rng = b.rng
    q = lambda kind, text, rel, para=False: b.ask(project, kind, text, rel, para)
    q("what", rng.choice([
        f"What did we decide about the {f['name']}?",
        f"what's the plan for the {f['name']}",
        f"What are we using for the {f['name']} now?",
    ]), [ids["moved"]])
    q("when", rng.choice([
        f"When did we move the {f['name']} to {f['tech']}?",
        f"When was the {f['name']} switched over to {f['tech']}?",
        f"when did {f['tech']} come in for the {f['name']}",
    ]), [ids["moved"]])
    q("why", rng.choice([
        f"Why did we drop {f['old']} for the {f['name']}?",
        f"Why are we on {f['tech']} for the {f['name']}?",
        f"why did the {f['name']} change?",
    ]), [ids["moved"]])
    who = rng.choice([
        (f"Who owns the {f['name']}?", "moved"),
        (f"Who is in charge of the {f['name']} work?", "moved"),
        (f"Who fixed the problem after we switched the {f['name']} to {f['tech']}?", "broke"),
    ])
    q("who", who[0], [ids[who[1]]])
    q("status", rng.choice([
        f"Is the {f['name']} still blocked?",
        f"What is holding up the {f['name']}?",
        f"Can we roll out the {f['name']} yet?",
    ]), [ids["blocked"]])
    q("multi_hop", rng.choice([
        f"What went wrong after we moved the {f['name']} to {f['tech']}?",
        f"Did anything break when the {f['name']} got its new backend?",
        f"Who traced the problem with the {f['name']} and what caused it?",
    ]), [ids["broke"], ids["moved"]])
    q("session", rng.choice([
        f"What was the last session doing on the {f['name']}?",
        f"where did we leave off with {f['stem']}.rs",
        f"What did the agent change in src/{f['stem']}.rs?",
    ]), [ids["session"], ids["handover"]])
    one = rng.choice([(f"{f['stem']}.rs", ["session", "handover"]), (f"#{f['ticket']}", ["note"]),
                      (f"{f['ticket']}", ["note"])])
    q("one_word", one[0], [ids[k] for k in one[1]])
    q("agent", rng.choice([
        f"{f['name']} {f['tech']} decision",
        f"{f['name']} blocker",
        f"{f['tech']} migration {f['name'].split()[-1]}",
    ]), [ids["moved"], ids["blocked"]])
    # Paraphrases: the part and the reason in other words; none of the answer's words.
    for text in rng.sample([
        f"Why did {f['other']} get a different backend?",
        f"What happened with {f['other']} once {f['tech_other']} was introduced?",
        f"Which part switched because {f['reason_other']}?",
        f"What broke: {f['breakage_other']}?",
        f"what is stopping {f['other']} from going live",
    ], 3):
        rel = {"Why": [ids["moved"]], "What happened": [ids["broke"], ids["moved"]],
               "Which": [ids["moved"]], "What broke": [ids["broke"]], "what is": [ids["blocked"]]}
        key = next(k for k in rel if text.startswith(k))
        q("paraphrase", text, rel[key], True)

# Conversations a person keeps in memory (one entry per turn, as a captured chat or a
# personal assistant's log stores them): two speakers, their life events mentioned in
# passing among small talk; questions as people ask about them later.
EVENTS = [
    # (what happened, as said in a turn; question; paraphrase sharing no content word)
    ("I started a new job at {org} last week, it's a lot to take in!",
     "When did {who} start the new job?", "When did {who} begin working for a different employer?"),
    ("We adopted a puppy, a little beagle called {pet}!",
     "What is the name of {who}'s dog?", "What did {who} call the animal they took in?"),
    ("I finally moved to {city}, the flat is tiny but bright.",
     "Where did {who} move to?", "Which town is {who} living in these days?"),
    ("I signed up for pottery classes on Thursdays, my first bowl was a disaster haha",
     "What hobby did {who} take up?", "Which craft is {who} learning in the evenings?"),
    ("I ran my first half marathon on Sunday, 2 hours 5 minutes!",
     "How long did {who}'s half marathon take?", "What time did {who} finish the race in?"),
    ("My sister {kin} is getting married in {month}, I'm the maid of honour.",
     "When is {who}'s sister's wedding?", "In which month does {who}'s sibling tie the knot?"),
    ("I've been volunteering at the animal shelter on weekends.",
     "Where does {who} volunteer?", "How does {who} help out with homeless pets?"),
    ("I'm reading {book} right now, can't put it down.",
     "What book is {who} reading?", "Which novel has {who} hooked at the moment?"),
    ("I broke my wrist skateboarding, so no guitar for six weeks.",
     "How did {who} get injured?", "What accident left {who} with a cast?"),
    ("We're planning a trip to {country} in the autumn, mostly hiking.",
     "Where is {who} travelling in the autumn?", "Which country will {who} visit on holiday later this year?"),
]
ORGS = ["Northwind", "Globex", "Initech", "Umbrella Health", "Stark Labs", "Wayne Logistics", "Acme Bank", "Hooli"]
PETS = ["Biscuit", "Pepper", "Maple", "Noodle", "Ziggy", "Olive", "Mochi", "Rusty"]
CITIES = ["Lisbon", "Leeds", "Porto", "Utrecht", "Valencia", "Gdansk", "Tallinn", "Bologna"]
BOOKS = ["Piranesi", "Circe", "Dune", "Klara and the Sun", "The Overstory", "Middlemarch", "Pachinko"]
COUNTRIES = ["Norway", "Japan", "Peru", "Scotland", "Georgia", "Iceland", "Chile", "Slovenia"]
SMALL_TALK = [
    "Hey! How was your weekend?", "That's so nice! What pet do you have?", "Haha yes, totally.",
    "Oh no, I'm sorry to hear that.", "Wow, congrats!!", "Talk soon, bye!", "Same here honestly.",
    "What have you been up to lately?", "That sounds amazing.", "I know right?", "Good luck with it!",
    "How is your family doing?", "Ugh, Mondays.", "Let's catch up properly next week.",
    "I've been so busy with work, barely slept.", "Did you watch the game yesterday?",
    "The weather has been awful here.", "Thanks for asking, I'm good!", "Miss you, we should meet up.",
    "Anyway, what's new with you?",
]
CONVERSATIONS = [("Mei", "Tomas"), ("Lena", "Kofi"), ("Ines", "Rafael"), ("Nadia", "Oskar"), ("Chloe", "Dev"),
                 ("Sara", "Yusuf")]


def conversation(b, project, speakers):
    rng = b.rng
    for who in speakers:
        for template, question, paraphrase in rng.sample(EVENTS, len(EVENTS)):
            fill = dict(org=rng.choice(ORGS), pet=rng.choice(PETS), city=rng.choice(CITIES),
                        kin=rng.choice(PEOPLE), month=rng.choice(MONTHS), book=rng.choice(BOOKS),
                        country=rng.choice(COUNTRIES), who=who)
            for _ in range(rng.randint(12, 30)):
                b.add(project, "note", f"{rng.choice(speakers)}: {rng.choice(SMALL_TALK)}")
            said = b.add(project, "note", f"{who}: {template.format(**fill)}")
            other = speakers[1] if who == speakers[0] else speakers[0]
            b.add(project, "note", f"{other}: {rng.choice(SMALL_TALK)}")
            b.ask(project, "chat", question.format(**fill), [said])
            # The speaker's name is in every turn and in the question: not a shared word
            # that gives the answer away.
            b.ask(project, "chat_paraphrase", paraphrase.format(**fill), [said], True, names=[who])


def main():
    rng = random.Random(37)
    b = Builder(rng)
    for project in PROJECTS:
        project_memory(b, project)
    for i, speakers in enumerate(CONVERSATIONS):
        conversation(b, f"chat{i + 1}", speakers)
    # The one-word questions must be one of a kind: a ticket number or file name that is
    # in its answer; two of the same in a project would make the label wrong.
    for q in b.queries:
        if q["type"] == "one_word":
            word = q["query"].lstrip("#")
            holders = [e["id"] for e in b.entries if e["project"] == q["project"] and word in e["content"]]
            q["relevant"] = holders
    b.queries = [q for q in b.queries if q["relevant"]]
    order = list(range(len(b.queries)))
    rng.shuffle(order)
    for i, n in enumerate(order):
        b.queries[n]["split"] = "tune" if i % 2 == 0 else "held"
    out = {"about": "Generated by bench/natural/make_set.py; do not edit by hand.",
           "entries": b.entries, "queries": b.queries}
    path = Path(__file__).with_name("set.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    types = {}
    for q in b.queries:
        types[q["type"]] = types.get(q["type"], 0) + 1
    print(f"{len(b.entries)} entries in {len(PROJECTS)} projects, {len(b.queries)} questions: {types}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
