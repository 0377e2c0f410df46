//! `bredon local`'s user commands: a line `NAME COMMAND [ARGS]` as the service's action.

use super::*;

impl Session {
    pub(super) fn user_command(
        &mut self,
        name: &str,
        cmd: &str,
        rest: &[String],
    ) -> Result<Option<Outcome>, Refusal> {
        let ctx = self.ctx(name);
        let sv = &self.service;
        let answer = rest.first().map(String::as_str);
        // A command that takes nothing refuses what follows it (`resign please` does not resign).
        if BARE_COMMANDS.contains(&cmd) && !rest.is_empty() {
            return Err(Refusal(format!(
                "`{cmd}` takes nothing after it (you wrote `{}`); type `{name} {cmd}`",
                shortened(&rest.join(" "))
            )));
        }
        let outcome = match cmd {
            "challenge" => {
                let options = challenge_options(rest)?;
                if options.engine.is_some() {
                    // Bredon accepts at once.
                    sv.challenge_engine(&ctx, &options, &self.bredon.me)?
                } else {
                    sv.challenge(&ctx, &options)?
                }
            }
            "accept" => sv.accept(&ctx)?,
            "decline" => sv.decline(&ctx)?,
            "cancel" => sv.cancel(&ctx)?,
            "rematch" => sv.rematch(&ctx)?,
            "move" | "play" => match rest.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                [] => return Err(Refusal("which ply? `move c3`".into())),
                [ply] => sv.play(&ctx, ply)?,
                [ply, "then", ref line @ ..] => {
                    sv.play_then(&ctx, ply, Some(&line.join(" ")), |_| ())?
                }
                [_, ref extra @ ..] => {
                    return Err(Refusal(format!(
                        "a move is one ply (you added `{}`); to keep conditional plies with it \
                         write `move c3 then e3 d3`",
                        shortened(&extra.join(" "))
                    )))
                }
            },
            "premove" => match rest.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                [] => sv.conditional_list(&ctx)?,
                ["clear"] => sv.clear_conditional(&ctx)?,
                _ => sv.add_conditional(&ctx, &rest.join(" "))?,
            },
            "undo" => match answer {
                Some("yes" | "accept") => sv.answer_undo(&ctx, true)?,
                Some("no" | "decline") => sv.answer_undo(&ctx, false)?,
                None => sv.request_undo(&ctx)?,
                Some(other) => return Err(yes_or_no("undo", other)),
            },
            "draw" => match answer {
                Some("yes" | "accept") => sv.answer_draw(&ctx, true)?,
                Some("no" | "decline") => sv.answer_draw(&ctx, false)?,
                None => sv.offer_draw(&ctx)?,
                Some(other) => return Err(yes_or_no("draw", other)),
            },
            "resign" => sv.resign(&ctx)?,
            "abort" => sv.abort(&ctx)?,
            "board" => match game_number(rest)? {
                Some(id) => sv.view_finished(&ctx, id, None)?,
                None => sv.view(&ctx)?,
            },
            "note" => match rest {
                [] => sv.note_list(&ctx)?,
                _ => sv.add_note(&ctx, &rest.join(" "))?,
            },
            "ptn" => {
                // `ptn [GAME] notes`: the asker's private notes as comments.
                let notes = rest.last().is_some_and(|w| w == "notes");
                let rest = &rest[..rest.len() - usize::from(notes)];
                let record = match notes {
                    true => sv.ptn_with_notes(&ctx, game_number(rest)?)?,
                    false => sv.ptn(&ctx, game_number(rest)?)?,
                };
                println!("{}", record.text);
                if let Some(link) = record.link {
                    println!("{link}");
                }
                return Ok(None);
            }
            "moves" => {
                let plies = sv.legal_plies(ctx.channel)?;
                println!("{} legal plies: {}", plies.len(), plies.join(" "));
                return Ok(None);
            }
            "history" => {
                let who = rest.first().map_or_else(|| ctx.user.clone(), |n| user(n));
                let games = sv.history(&ctx, who.id)?;
                if games.is_empty() {
                    println!("{} has no finished games here", who.name);
                }
                for g in games {
                    println!(
                        "#{} {} vs {}, {} on {}: {} {} ({} plies)",
                        g.shown_number(),
                        g.players[0].name,
                        g.players[1].name,
                        g.settings.game.name(),
                        g.settings.game.board(g.settings.size),
                        g.result.code(),
                        g.result.how(),
                        g.plies.len()
                    );
                }
                return Ok(None);
            }
            "stats" => {
                let kind = game_option(rest)?;
                let who = rest
                    .iter()
                    .find(|w| !w.contains('='))
                    .map_or_else(|| ctx.user.clone(), |n| user(n));
                println!("{} in {}:", who.name, kind.name());
                for s in sv.stats(&ctx, &who, kind)? {
                    println!("  {}", s.describe());
                }
                return Ok(None);
            }
            "puzzle" => super::puzzles::command(sv, &ctx, rest)?,
            "leaderboard" if answer == Some("puzzles") => {
                super::puzzles::leaderboard(sv, &ctx)?;
                return Ok(None);
            }
            "leaderboard" => {
                let board = sv.leaderboard(
                    &ctx,
                    game_option(rest)?,
                    number_option(rest, "size", "a board size: write a number, like size=6")?,
                )?;
                println!(
                    "{} on {}{}:",
                    board.game.name(),
                    board.game.board(board.size),
                    if board.askers_size {
                        " (the size you play most; size=N shows another)"
                    } else {
                        ""
                    }
                );
                if board.players.is_empty() {
                    println!("  nobody has finished a rated game on this size yet");
                }
                for (i, p) in board.players.iter().take(10).enumerate() {
                    println!(
                        "{}. {} {:.0} ({}-{}-{})",
                        i + 1,
                        p.user.name,
                        p.rating,
                        p.wins,
                        p.losses,
                        p.draws
                    );
                }
                for n in board.other_sizes {
                    println!("  also rated here: {} (size={n})", board.game.board(n));
                }
                return Ok(None);
            }
            "games" | "mygames" => {
                let mine = (cmd == "mygames").then_some(ctx.user.id);
                let list = sv.summaries(&ctx, mine)?;
                if list.is_empty() {
                    println!("no games");
                }
                for g in list {
                    let idle = (self.now() - g.last_ply_ms) / 60_000;
                    let since = if g.plies == 0 { "started" } else { "last ply" };
                    println!(
                        "  game #{} in #{}: {} vs {} ({} on {}, ply {}), {} to move, {since} {} h {:02} min ago",
                        g.number,
                        channel_name(g.channel, &self.channels),
                        g.players[0].name,
                        g.players[1].name,
                        g.game.name(),
                        g.game.board(g.size),
                        g.plies,
                        g.to_move.name,
                        idle / 60,
                        idle % 60
                    );
                    if let Some(newest) = g.newest_note {
                        println!("    your notes: {}, the newest: {newest}", g.notes);
                    }
                }
                return Ok(None);
            }
            "notify" => {
                let get = |k: &str| rest.iter().find_map(|w| w.strip_prefix(&format!("{k}=")));
                if let Some(w) = rest.iter().find(|w| {
                    !w.starts_with("dm=")
                        && !w.starts_with("reminder=")
                        && !w.starts_with("digest=")
                }) {
                    return Err(Refusal(format!(
                        "`{}` is not a notify option: dm=on|off, reminder=12h|off|game, digest=18|off",
                        shortened(w)
                    )));
                }
                let dm = get("dm").map(|v| on_off("dm", v)).transpose()?;
                let hour = get("digest").map(crate::service::digest_hour).transpose()?;
                let mut p = sv.set_prefs(ctx.user.id, dm, get("reminder"))?;
                if let Some(hour) = hour {
                    p = sv.set_digest(ctx.user.id, hour)?;
                }
                println!("{}", crate::service::describe_prefs(&p));
                return Ok(None);
            }
            "bid" => {
                let coins = rest
                    .first()
                    .and_then(|c| c.parse::<i64>().ok())
                    .ok_or_else(|| Refusal("bid how many coins? e.g. `alice bid 5`".into()))?;
                match sv.bid(&ctx, coins)? {
                    crate::service::Bid::Sealed(text) => {
                        println!("(only {} sees this) {text}", ctx.user.name);
                        return Ok(None);
                    }
                    crate::service::Bid::Settled(outcome) => *outcome,
                }
            }
            "wallet" => {
                if rest.first().is_some_and(|w| w == "top") {
                    for (i, w) in sv.coin_leaderboard(&ctx)?.iter().take(10).enumerate() {
                        println!("{}. {} {} coins", i + 1, w.user.name, w.balance);
                    }
                } else {
                    let who = rest.first().map_or_else(|| ctx.user.clone(), |n| user(n));
                    println!("{} has {} coins", who.name, sv.wallet(&ctx, who.id)?);
                }
                return Ok(None);
            }
            "vacation" => match rest.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                ["start", days] => {
                    let days = days.trim_end_matches('d').parse().map_err(|_| {
                        Refusal(format!(
                            "`{}` is not a number of days: `vacation start 5`",
                            shortened(days)
                        ))
                    })?;
                    sv.vacation_start(&ctx, days)?
                }
                ["end"] => sv.vacation_end(&ctx)?,
                _ => {
                    return Err(Refusal(
                        "`vacation start DAYS` (e.g. `vacation start 5`) or `vacation end`".into(),
                    ))
                }
            },
            "settings" => {
                let get = |k: &str| rest.iter().find_map(|w| w.strip_prefix(&format!("{k}=")));
                if let Some(n) = number_option(rest, "coins", "a number")? {
                    sv.set_starting_coins(&ctx, n)?;
                }
                if let Some(who) = get("tournaments") {
                    sv.set_tournament_makers(&ctx, who)?;
                }
                if let Some(hide) = get("hide") {
                    sv.set_display(&ctx, hide)?;
                }
                if let Some(tray) = get("tray") {
                    sv.set_tray(&ctx, on_off("tray", tray)?)?;
                }
                if let Some(komi) = get("komi") {
                    let size = number_option(rest, "komi_size", "a number 3..8")?;
                    sv.set_server_komi(&ctx, size, komi)?;
                }
                if let Some(n) = number_option(rest, "vacation_days", "a number of days")? {
                    sv.set_vacation_days(&ctx, n)?;
                }
                super::puzzles::settings(sv, &ctx, rest, |name| user(name).id)?;
                if let Some(web) = get("web") {
                    sv.set_web(&ctx, on_off("web", web)?)?;
                }
                if let Some(reset) = get("web_reset") {
                    if on_off("web_reset", reset)? {
                        sv.reset_web(&ctx)?;
                    }
                }
                let size = number_option(rest, "size", "a number 3..8")?;
                let s = sv.set_settings(&ctx, get("theme"), size, get("reminder"))?;
                println!(
                    "settings: theme {}, {}, size {}, {}, reminders {}, starting coins {}, tournaments by {}, {} a year",
                    s.theme,
                    s.describe_display(),
                    s.size,
                    s.describe_komi(),
                    s.reminder_secs
                        .map_or("off".into(), |r| format!(
                            "after {}",
                            crate::service::describe_secs(r)
                        )),
                    s.starting_coins,
                    if s.open_tournaments { "anyone" } else { "moderators" },
                    crate::words::count(s.vacation_days, "vacation day")
                );
                if let Some(c) = s.puzzle_channel {
                    let name = channel_name(c, &self.channels);
                    println!("  daily puzzle in #{name} at {:02}:00 UTC", s.puzzle_hour);
                }
                if let Some(slug) = &s.web_slug {
                    println!(
                        "  web pages at /s/{slug} (under BREDON_WEB_URL, served by `bredon web`)"
                    );
                }
                return Ok(None);
            }
            // `alice c3`: a ply without the word `move`; something shaped like a ply that is
            // not one (`2a3>1`) gets the ply's refusal, which says what is wrong.
            ply if looks_like_ply(ply) => sv.play(&ctx, ply)?,
            other => {
                return Err(Refusal(format!(
                    "`{}` is not a command; type `help` for the list",
                    shortened(other)
                )))
            }
        };
        Ok(Some(outcome))
    }
}

/// `undo maybe`: an answer other than yes or no is refused, not taken as a new request.
fn yes_or_no(cmd: &str, answer: &str) -> Refusal {
    Refusal(format!(
        "`{cmd} {}`: answer with `{cmd} yes` or `{cmd} no`, or write `{cmd}` alone to ask",
        shortened(answer)
    ))
}
