//! `mooring remote …`: pair a phone through a Telegram or Slack bot, see how it is doing,
//! switch away mode. The hub (`mooring serve` or the tray app) runs the bots; it follows
//! the settings file, so nothing here needs a restart.

use std::path::Path;

use chrono::Utc;
use mooring_core::Error;
use mooring_core::remote::{Bot, Platform, RemoteConfig};
use serde_json::json;

use super::Ctx;
use crate::cli_remote::{RemoteAction, RemoteArgs};
use crate::output::{Failure, print_json};

/// Dispatch `remote`.
pub fn run(ctx: &Ctx, args: RemoteArgs) -> Result<(), Failure> {
    match args.action {
        RemoteAction::Add { platform, token_file, bot_token_file, api } => {
            add(ctx, &platform, token_file.as_deref(), bot_token_file.as_deref(), api)
        }
        RemoteAction::Pair { platform } => pair(ctx, &platform),
        RemoteAction::Status => status(ctx),
        RemoteAction::Test { platform } => test(ctx, &platform),
        RemoteAction::Remove { platform } => remove(ctx, &platform),
        RemoteAction::Off { slug } => keep_off(ctx, &slug, true),
        RemoteAction::On { slug } => keep_off(ctx, &slug, false),
        RemoteAction::Away => away(ctx, true),
        RemoteAction::Back => away(ctx, false),
    }
}

fn read_token(file: Option<&Path>, platform: Platform) -> Result<String, Failure> {
    let spec = platform.spec();
    let Some(token) = super::secret_input::read(file, "token_file", spec.token_prompt)? else {
        return Err(Error::invalid(
            "token_file",
            "no token: give --token-file FILE (or - for standard input)",
        )
        .into());
    };
    if !(spec.token_ok)(&token) {
        return Err(Error::invalid(
            "token",
            format!("that is not a {} token: {}", platform.name(), spec.token_shape),
        )
        .into());
    }
    Ok(token)
}

/// The second token a platform posts with (Slack's bot token), read when it has one.
fn read_bot_token(file: Option<&Path>, platform: Platform) -> Result<Option<String>, Failure> {
    let Some(second) = &platform.spec().bot_token else { return Ok(None) };
    let title = platform.spec().title;
    match super::secret_input::read(file, "bot_token_file", second.prompt)? {
        Some(t) if t.starts_with(second.prefix) => Ok(Some(t)),
        Some(_) => {
            Err(Error::invalid("bot_token", format!("that is not a {title} bot token: {}", second.shape))
                .into())
        }
        None => Err(Error::invalid(
            "bot_token_file",
            format!("{title} needs its bot token too: give --bot-token-file FILE (or - for standard input)"),
        )
        .into()),
    }
}

fn add(
    ctx: &Ctx,
    platform: &str,
    token_file: Option<&Path>,
    bot_token_file: Option<&Path>,
    api: Option<String>,
) -> Result<(), Failure> {
    let platform = Platform::parse(platform)?;
    let api = api.unwrap_or_else(|| platform.default_api().to_owned());
    if !mooring_server::remote::http::safe_base(&api) {
        return Err(Error::invalid(
            "api",
            format!("{api} would carry the token in the clear: use https://, or http:// to this machine"),
        )
        .into());
    }
    if platform.spec().bot_token.is_none() && bot_token_file.is_some() {
        return Err(Error::invalid("bot_token_file", "only Slack has a second token; leave it out").into());
    }
    let token = read_token(token_file, platform)?;
    let bot_token = read_bot_token(bot_token_file, platform)?;
    let mut config = RemoteConfig::edit(&ctx.data_dir)?;
    let (mut bot, code) = Bot::new(token, api, Utc::now());
    bot.bot_token = bot_token;
    *config.bot_mut(platform) = Some(bot);
    config.save()?;
    if ctx.json {
        print_json(
            &json!({ "platform": platform.name(), "pairing_code": code, "minutes": mooring_core::remote::config::PAIRING_MINUTES }),
        );
    } else {
        println!(
            "Added the {} bot. From your phone, send it{}:\n\n    {}\n\nThe code works once, for {} minutes, while Mooring runs (the tray app or `mooring serve`).",
            platform.name(),
            if platform == Platform::Slack { " in a direct message" } else { "" },
            platform.pairing_words(&code),
            mooring_core::remote::config::PAIRING_MINUTES
        );
    }
    Ok(())
}

fn pair(ctx: &Ctx, platform: &str) -> Result<(), Failure> {
    let platform = Platform::parse(platform)?;
    let mut config = RemoteConfig::edit(&ctx.data_dir)?;
    let Some(bot) = config.bot_mut(platform).as_mut() else {
        return Err(Error::not_found(
            "platform",
            format!("no {} bot: add one with `mooring remote add {}`", platform.name(), platform.name()),
        )
        .into());
    };
    bot.paired = None;
    let code = bot.new_code(Utc::now());
    config.save()?;
    if ctx.json {
        print_json(&json!({ "platform": platform.name(), "pairing_code": code }));
    } else {
        println!("From your phone, send the {} bot: {}", platform.name(), platform.pairing_words(&code));
    }
    Ok(())
}

fn test(ctx: &Ctx, platform: &str) -> Result<(), Failure> {
    let platform = Platform::parse(platform)?;
    let config = RemoteConfig::load(&ctx.data_dir)?;
    let text =
        format!("🔔 Mooring can reach you here (`mooring remote test`, {}).", Utc::now().format("%H:%M UTC"));
    ctx.runtime()?
        .block_on(mooring_server::remote::send_now(platform, &config, &text))
        .map_err(|why| Error::invalid("platform", why))?;
    if ctx.json {
        print_json(&json!({ "platform": platform.name(), "sent": true }));
    } else {
        println!("Sent a test message to your phone on {}.", platform.name());
    }
    Ok(())
}

fn status(ctx: &Ctx) -> Result<(), Failure> {
    let summary = mooring_server::remote::status::summary(&ctx.data_dir)?;
    if ctx.json {
        print_json(&summary);
        return Ok(());
    }
    let bots = summary["bots"].as_array().cloned().unwrap_or_default();
    let away = summary["away"] == true;
    println!(
        "{}",
        if away { "Away: questions go to the phone." } else { "At the desk: questions stay here." }
    );
    if bots.is_empty() {
        println!("No bot yet: `mooring remote add telegram` pairs a phone.");
    }
    for b in &bots {
        let paired = if b["paired"] == true {
            "paired"
        } else if b["pairing_open"] == true {
            "waiting for its code"
        } else {
            "not paired"
        };
        let reach = match (b["reachable"].as_bool(), b["error"].as_str()) {
            (Some(true), _) => "reachable".to_owned(),
            (Some(false), Some(e)) => format!("not reachable: {e}"),
            _ => "not started (is Mooring running?)".to_owned(),
        };
        println!("{}: {paired}, {reach}", b["platform"].as_str().unwrap_or(""));
    }
    Ok(())
}

fn remove(ctx: &Ctx, platform: &str) -> Result<(), Failure> {
    let platform = Platform::parse(platform)?;
    let mut config = RemoteConfig::edit(&ctx.data_dir)?;
    if config.bot_mut(platform).take().is_none() {
        return Err(Error::not_found("platform", format!("no {} bot to remove", platform.name())).into());
    }
    config.save()?;
    if ctx.json {
        print_json(&json!({ "removed": platform.name() }));
    } else {
        println!("Removed the {} bot; its token is forgotten.", platform.name());
    }
    Ok(())
}

fn keep_off(ctx: &Ctx, slug: &str, off: bool) -> Result<(), Failure> {
    let project = mooring_core::Registry::new(&ctx.store()?).get(slug)?;
    let mut config = RemoteConfig::edit(&ctx.data_dir)?;
    if off {
        config.never_remote.insert(project.slug.clone());
    } else {
        config.never_remote.remove(&project.slug);
    }
    config.save()?;
    if ctx.json {
        print_json(&json!({ "project": project.slug, "remote": !off }));
    } else if off {
        println!(
            "{} is kept off the phone: nothing of it is sent there, and no phone command reaches it.",
            project.slug
        );
    } else {
        println!("{} may reach the phone again.", project.slug);
    }
    Ok(())
}

fn away(ctx: &Ctx, away: bool) -> Result<(), Failure> {
    let mut config = RemoteConfig::edit(&ctx.data_dir)?;
    config.away = away;
    config.save()?;
    if ctx.json {
        print_json(&json!({ "away": away }));
    } else if away {
        println!("Away: questions go to the paired phone until `mooring remote back`.");
    } else {
        println!("Back at the desk: questions stay here.");
    }
    Ok(())
}
