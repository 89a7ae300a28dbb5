//! `mooring hook CLIENT`: what a client's hooks run. It reads the hook's JSON on stdin
//! and resolves the project of the session's directory; at a session's start it prints
//! the context preamble in the client's hook format, and at a turn's end, before a
//! compaction and at the session's end it brings the session's captured record up to
//! date (printing nothing). It never fails the client: outside a project it does
//! nothing, and any error or a slow answer (over [`DEADLINE`] at a start) leaves empty
//! output, exit 0, and a line in `hook.log` in the data directory. `MOORING_CAPTURE=off`
//! in the client's environment silences it for that session.

use std::{io::Read, io::Write, sync::mpsc, time::Duration};

use mooring_clients::Client;
use mooring_clients::hooks::{Event, Input, Reply};
use mooring_core::memory::injected::{self, What};
use mooring_core::memory::preamble::{self, Caps};
use serde_json::Value;

use super::Ctx;
use super::hook_log::log;
use super::memory::decide_dir;
use crate::cli::HookArgs;
use crate::output::Failure;

/// The longest a hook may take; clients wait for it before the session starts.
const DEADLINE: Duration = Duration::from_millis(180);
/// The longest a capture may take by default (a turn's end; the client's entry allows
/// 5 s). A transcript that needs longer is read on over the next turns.
const CAPTURE_DEADLINE: Duration = Duration::from_millis(2_000);
/// What a capture leaves itself to store its last slice before the process gives up.
const CAPTURE_MARGIN: Duration = Duration::from_millis(400);
/// Tokens of preamble a hook hands over (the output is cut to the client's limit too).
const BUDGET: usize = 2_000;
/// The most of stdin read: hook inputs are small JSON objects.
const MAX_INPUT: u64 = 1024 * 1024;

/// Run the hook; always succeeds.
pub fn run(ctx: &Ctx, args: HookArgs) -> Result<(), Failure> {
    let started = std::time::Instant::now();
    let Some(client) = Client::parse(&args.client).filter(|c| c.has_hooks()) else {
        log(ctx, &format!("unknown hook client \"{}\"", args.client));
        return Ok(());
    };
    let mut raw = String::new();
    let _ = std::io::stdin().lock().take(MAX_INPUT).read_to_string(&mut raw);
    // Read once, in the client's dialect; every step below looks at the same input. An
    // input that is not JSON still has the event its entry names (or is a start).
    let (input, unreadable) = match serde_json::from_str::<Value>(&raw) {
        Ok(v) => (client.hook_input_named(&v, args.event.as_deref()), None),
        Err(e) => (
            client.hook_input_named(&Value::Null, args.event.as_deref()),
            Some(format!("the hook input is not JSON ({e})")),
        ),
    };
    let event = input.event;
    if unreadable.is_none() && event == Event::Permission {
        // Waits for the person (their phone) as long as the client's hook allows.
        match super::away::permission(ctx, client, &input) {
            Ok(Some(out)) => print_out(&out),
            Ok(None) => {}
            Err(why) => log(ctx, &format!("{client}: permission: {why}")),
        }
        return Ok(());
    }
    if mooring_core::capture::silenced_by_env() {
        // The person started this session with MOORING_CAPTURE=off: nothing is added to
        // it and nothing of it is kept.
        return Ok(());
    }
    // A turn's end may go on with the away person's next words, once its record is kept
    // (or left to a waiter).
    let holds = unreadable.is_none() && event == Event::TurnEnd && client.hook_abilities().continues;
    // A session file the client writes only once it exits is waited for apart: the client
    // waits for this hook to end before it writes it.
    let pending = client.dialect().and_then(|d| d.transcript_pending);
    if let (Some(pending), Some(transcript)) =
        (pending.filter(|_| event.captures()), input.transcript.clone())
    {
        if args.after_exit {
            super::after_exit::wait_for(&transcript, pending);
            if let Err(why) = answer(ctx, client, &input, unreadable, std::time::Instant::now()) {
                log(ctx, &format!("{client}: after the session: {why}"));
            }
            return Ok(());
        }
        if unreadable.is_none() && pending(&transcript) {
            if let Err(why) = super::after_exit::start(&ctx.data_dir, &args, &raw) {
                log(ctx, &format!("{client}: no waiter started for the unwritten session file: {why}"));
            }
            // The record waits for the file; the person's next words do not.
            if holds {
                hold(ctx, client, &input);
            }
            return Ok(());
        }
    }
    // What a turn's end needs after the record is kept (the thread below takes `input`).
    let stop_input = holds.then(|| input.clone());
    let (tx, rx) = mpsc::channel();
    let data_dir = ctx.data_dir.clone();
    let base = ctx.cwd.clone();
    // The work runs on its own thread so a stuck disk or a huge database cannot hold the
    // client past the deadline: the process exits and takes the thread with it.
    std::thread::spawn(move || {
        let ctx = Ctx::at(data_dir, false, base);
        let _ = tx.send(answer(&ctx, client, &input, unreadable, started));
    });
    match super::hook_ask::receive(&rx, deadline(event)) {
        Ok(Ok(Some(out))) => print_out(&out),
        Ok(Ok(None)) => {}
        Ok(Err(why)) => log(ctx, &format!("{client}: {why}")),
        Err(_) => log(
            ctx,
            &format!("{client}: no answer within {} ms; printed nothing", started.elapsed().as_millis()),
        ),
    }
    if let Some(input) = &stop_input {
        hold(ctx, client, input);
    }
    Ok(())
}

/// A turn's end, recorded: with the person away, it may go on with their next words.
fn hold(ctx: &Ctx, client: Client, input: &Input) {
    match super::away::turn_end(ctx, client, input) {
        Ok(Some(out)) => print_out(&out),
        Ok(None) => {}
        Err(why) => log(ctx, &format!("{client}: away: {why}")),
    }
}

/// What the client reads from the hook, written at once.
fn print_out(out: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes()).and_then(|_| stdout.flush());
}

/// How long the client may wait. A session's start waits for the preamble and a prompt
/// for its recall; a capture prints nothing and reads a bounded part of the transcript,
/// and giving up would leave the record behind, so it may take longer (the hook entry
/// allows 5 s).
fn deadline(event: Event) -> Duration {
    let set = deadline_setting();
    if event.captures() {
        set.map_or(CAPTURE_DEADLINE, |d| d.max(CAPTURE_MARGIN * 2))
    } else {
        set.unwrap_or(DEADLINE)
    }
}

/// `MOORING_HOOK_DEADLINE_MS` (up to the clients' 5 s), for a slow disk, a busy machine
/// or a team database far away: it governs every hook, capture included.
fn deadline_setting() -> Option<Duration> {
    std::env::var("MOORING_HOOK_DEADLINE_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|ms| Duration::from_millis(ms.clamp(50, 4_500)))
}

/// The hook's output, None outside a project (and for a capture, which prints nothing).
fn answer(
    ctx: &Ctx,
    client: Client,
    input: &Input,
    unreadable: Option<String>,
    started: std::time::Instant,
) -> Result<Option<String>, String> {
    let event = input.event;
    // A client whose hooks are the record folds its prompts and steps in too.
    let recorded = input.record.is_some() && event.recorded();
    // A client that reads a hook's answer only at a tool call (Cline) gets the context there.
    let first_tool =
        event == Event::ToolUse(true) && client.dialect().is_some_and(|d| d.context_at_first_tool);
    // A tool about to write files: they are claimed first.
    let edit = match (event, &input.tool, client.dialect()) {
        (Event::ToolUse(true), Some(tool), Some(d)) => (d.edited)(tool).and_then(super::hook_claims::files),
        _ => None,
    };
    if !matches!(event, Event::Start | Event::Prompt)
        && !event.captures()
        && !recorded
        && !first_tool
        && edit.is_none()
    {
        return Ok(None);
    }
    // A start without readable input still gets the preamble of the shell's directory; a
    // capture or a recall needs what the input says.
    if let Some(why) = unreadable.filter(|_| event != Event::Start) {
        return Err(why);
    }
    let dir = input.cwd.clone().unwrap_or_else(|| ctx.cwd.display().to_string());
    if !ctx.data_dir.join(mooring_core::store::DB_FILE).exists() {
        return Ok(None);
    }
    // The client shows a hook's stderr as if something failed: a stale list goes to the log.
    ctx.quiet.set(true);
    let (store, memory) = ctx.memory().map_err(|e| describe(&e))?;
    if let Some(note) = ctx.stale_note() {
        log(ctx, &format!("{client}: {note}"));
    }
    let decided = decide_dir(&store, &dir, ctx, false).map_err(|e| describe(&e))?;
    let Some(slug) = decided.resolution.project.clone() else {
        return Ok(None);
    };
    let key = session_key(client, input);
    if let (Some(key), Some(files)) = (&key, &edit) {
        let guarded =
            super::hook_claims::before_edit(&ctx.data_dir, &store, client, &slug, key, input, files)?;
        // A free write that is the session's first tool (Cline) still brings the context.
        if guarded.is_some() || !first_tool {
            return Ok(guarded);
        }
    } else if edit.is_some() && !first_tool {
        return Ok(None);
    }
    // Noted before the capture, so the record lists what the session holds; a session's
    // end lets go only once its record is kept.
    let noted = |ctx: &Ctx| {
        if let Some(key) = &key
            && let Err(why) = super::hook_claims::note(&store, client, &slug, key, input)
        {
            log(ctx, &format!("{client}: the live session was not noted: {why}"));
        }
    };
    if event != Event::SessionEnd {
        noted(ctx);
    }
    if event.captures() || recorded {
        let stop = started + deadline(event).saturating_sub(CAPTURE_MARGIN);
        let kept = super::hook_capture::capture(ctx, client, &store, &memory, input, stop, &decided);
        if event == Event::SessionEnd {
            noted(ctx);
        }
        kept?;
        return Ok(None);
    }
    if first_tool {
        let Some(key) = session_key(client, input) else { return Ok(None) };
        let text = context_once(client, &store, &memory, &slug, &key, input)?;
        return Ok(text.map(|text| client.hook_reply(input, &Reply::Context(text))));
    }
    if event == Event::Prompt {
        return prompt(client, &store, &memory, &slug, input);
    }
    let text = context(client, &store, &memory, &slug, input)?;
    Ok(Some(client.hook_reply(input, &Reply::Context(text))))
}

/// A prompt's answer: the project's context when the session has had none, the phone's
/// words and the notes left for this session, then what memory recalls.
fn prompt(
    client: Client,
    store: &mooring_core::Store,
    memory: &dyn mooring_core::store::backend::MemoryBackend,
    slug: &str,
    input: &Input,
) -> Result<Option<String>, String> {
    let key = session_key(client, input);
    // Notes for it: from the phone, another live session, or the person at the desk.
    let (sent, noted) = match &key {
        Some(k) => (
            mooring_core::remote::inbox::take(store, slug, k).map_err(|e| e.message)?,
            mooring_core::projects::session_notes::take(store, slug, k).map_err(|e| e.message)?,
        ),
        None => (None, None),
    };
    // A client that may not run its start hook (Qwen Code headless) hands the project's
    // context over with the session's first prompt instead.
    let context = match &key {
        Some(k) if client.dialect().is_some_and(|d| d.start_may_not_fire) && input.from_person => {
            context_once(client, store, memory, slug, k, input)?
        }
        _ => None,
    };
    let recalled = recall(client, store, memory, slug, input)?;
    let text = [context, sent, noted, recalled].into_iter().flatten().collect::<Vec<_>>().join("\n");
    if text.is_empty() {
        return Ok(None);
    }
    Ok(Some(client.hook_reply(input, &Reply::Context(text))))
}

/// The project's context for session `key` when it has had none yet (a client whose start
/// hook may not run, or that reads a hook's answer only at a tool call): one index probe
/// when it has.
fn context_once(
    client: Client,
    store: &mooring_core::Store,
    memory: &dyn mooring_core::store::backend::MemoryBackend,
    slug: &str,
    key: &str,
    input: &Input,
) -> Result<Option<String>, String> {
    let handed = store.read(|c| mooring_core::store::injections::any(c, slug, key)).map_err(|e| e.message)?;
    if handed { Ok(None) } else { context(client, store, memory, slug, input).map(Some) }
}

/// The project's context for a session's start (after a compaction, with the session so
/// far first), noted as handed to the session.
fn context(
    client: Client,
    store: &mooring_core::Store,
    memory: &dyn mooring_core::store::backend::MemoryBackend,
    slug: &str,
    input: &Input,
) -> Result<String, String> {
    let caps = Caps::load(store).map_err(|e| e.message.clone())?;
    let p = preamble::build(store, memory, slug, Some(BUDGET), caps).map_err(|e| e.message.clone())?;
    let mut ids = p.ids;
    let (text, what) = match this_session_so_far(client, memory, slug, input) {
        Some((id, record)) => {
            ids.push(id);
            (format!("{record}\n{}", p.text), What::Compaction)
        }
        None => (p.text, What::Preamble),
    };
    // What the preamble showed is not recalled again at this session's prompts; what it
    // cost shows on the session's timeline.
    if let Some(key) = session_key(client, input) {
        let stamp = mooring_core::humanize::now();
        store
            .write(|tx| {
                mooring_core::store::recall_given::add(tx, &key, &ids, &stamp)?;
                injected::note(tx, slug, &key, what, &ids, &text)
            })
            .map_err(|e| e.message)?;
    }
    Ok(text)
}

/// The record key of the hook's client session, when the input names one.
fn session_key(client: Client, input: &Input) -> Option<String> {
    Some(mooring_core::capture::key(client.name(), input.session.as_deref()?))
}

/// At a prompt: the entries of the project's memory the prompt is about, not yet handed
/// to this session, as the text handed to the model; nothing when none clears the bar.
fn recall(
    client: Client,
    store: &mooring_core::Store,
    memory: &dyn mooring_core::store::backend::MemoryBackend,
    slug: &str,
    input: &Input,
) -> Result<Option<String>, String> {
    if !mooring_core::settings::Setting::Recall.is_on(store).map_err(|e| e.message)? {
        return Ok(None);
    }
    // A background task's result or another session's message is not the person asking.
    let Some(prompt) = input.prompt.as_deref().filter(|_| input.from_person) else { return Ok(None) };
    let prompt = &mooring_core::capture::record::without_hook_context(prompt);
    let key = session_key(client, input);
    let given = match &key {
        Some(k) => store.read(|c| mooring_core::store::recall_given::given(c, k)).map_err(|e| e.message)?,
        None => Vec::new(),
    };
    let found = mooring_core::search::recall::recall(memory, slug, prompt, &given).map_err(|e| e.message)?;
    let (text, ids) = mooring_core::search::recall::render(&found, memory.authors_are_people(slug));
    if ids.is_empty() {
        return Ok(None);
    }
    if let Some(k) = &key {
        let stamp = mooring_core::humanize::now();
        store
            .write(|tx| {
                mooring_core::store::recall_given::add(tx, k, &ids, &stamp)?;
                injected::note(tx, slug, k, What::Recall, &ids, &text)
            })
            .map_err(|e| e.message)?;
    }
    Ok(Some(text))
}

/// After a compaction (`SessionStart` with source `compact`), the session's own record:
/// what it had asked, changed and left open before its context was cut; its entry id.
fn this_session_so_far(
    client: Client,
    memory: &dyn mooring_core::store::backend::MemoryBackend,
    slug: &str,
    input: &Input,
) -> Option<(i64, String)> {
    if !input.after_compaction {
        return None;
    }
    let key = session_key(client, input)?;
    let (_, row) = memory.session_entry(slug, &key).ok()?;
    let row = row.filter(|r| r.forgotten_at.is_none())?;
    Some((
        row.id,
        format!(
            "## This session before compaction (captured by Mooring, #{})\n_{}_\n{}",
            row.id,
            mooring_core::guard::quoted::FRAME,
            row.content.lines().map(|l| mooring_core::guard::quoted::line(l) + "\n").collect::<String>()
        ),
    ))
}

fn describe(f: &Failure) -> String {
    f.sentence()
}
