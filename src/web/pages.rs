//! The pages as maud templates, checked when Bredon is compiled: every value is escaped by
//! maud, names are shown as text (never as markup or a mention), and no page holds a script
//! or a style of its own (both are files, which the Content-Security-Policy allows).

use super::viewer::Viewer;
use crate::service::{ptn_date, WebAnalysis, WebBoard, WebGame, WebPuzzler, WebServerPage};
use maud::{html, Markup, DOCTYPE};

/// A page: `script` says whether it steps a board (the scripts are files, deferred; every page
/// shows its times in the reader's own time zone).
pub(super) fn layout(title: &str, script: bool, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (title) " · Bredon" }
                link rel="stylesheet" href="/static/style.css";
                script src="/static/times.js" defer {}
                @if script {
                    script src="/static/board.js" defer {}
                    script src="/static/game.js" defer {}
                }
            }
            body {
                main { (body) }
                footer { "Bredon: correspondence Tak on Discord. This page is read-only." }
            }
        }
    }
    .into_string()
}

pub(super) fn not_found() -> String {
    layout(
        "Not found",
        false,
        html! {
            h1 { "Not found" }
            p { "There is no page here. A server's pages have the address its moderators share." }
        },
    )
}

pub(super) fn home() -> String {
    layout(
        "Bredon",
        false,
        html! {
            h1 { "Bredon" }
            p { "Correspondence Tak on Discord. Each server that turns its pages on \
                 (/settings web:true) has an address of its own, which its moderators share." }
        },
    )
}

/// `ms` as a UTC date and time: `2026.11.26 15:58 UTC`.
pub(super) fn when(ms: i64) -> String {
    format!("{} {} UTC", ptn_date(ms), hours_minutes(ms))
}

/// The UTC time of day of `ms`: `15:58`.
fn hours_minutes(ms: i64) -> String {
    let minute = ms.div_euclid(60_000).rem_euclid(24 * 60);
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// `name` isolated from the text around it (U+2068 ... U+2069), so a name holding
/// right-to-left marks or overrides cannot reorder the sentence it stands in.
pub(super) fn isolate(name: &str) -> String {
    format!("\u{2068}{name}\u{2069}")
}

/// `sentence` with each of `names` in it isolated, where it stands as a word of its own (the
/// longest name first, so one name inside another is not cut).
pub(super) fn isolated(sentence: &str, names: &[String]) -> String {
    let mut names: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !n.is_empty())
        .collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let word_char = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let mut out = String::with_capacity(sentence.len());
    let mut at = 0;
    while at < sentence.len() {
        let (before, rest) = sentence.split_at(at);
        let found = names.iter().find(|name| {
            rest.starts_with(**name)
                && !word_char(before.chars().next_back())
                && !word_char(rest[name.len()..].chars().next())
        });
        match found {
            Some(name) => {
                out.push_str(&isolate(name));
                at += name.len();
            }
            None => {
                let c = rest.chars().next().expect("inside the sentence");
                out.push(c);
                at += c.len_utf8();
            }
        }
    }
    out
}

/// How long from `then` to `now`, roughly: `5 min`, `3 h`, `2 d`.
fn span(then: i64, now: i64) -> String {
    let minutes = (now - then).max(0) / 60_000;
    match minutes {
        0..=59 => format!("{minutes} min"),
        60..=2879 => format!("{} h", minutes / 60),
        _ => format!("{} d", minutes / 1440),
    }
}

/// A moment as the page shows it: in UTC, which the page's script turns into the reader's own
/// time (keeping UTC in its title); `datetime` in ISO 8601, `data-ms` for the script.
pub(super) fn time(ms: i64) -> Markup {
    let iso = format!("{}T{}Z", ptn_date(ms).replace('.', "-"), hours_minutes(ms));
    html! { time datetime=(iso) data-ms=(ms) { (when(ms)) } }
}

/// A player's name, linked to their page when they have one (`key`).
pub(super) fn player(slug: &str, name: &str, key: Option<&str>) -> Markup {
    html! {
        @match key {
            Some(key) => a href={ "/s/" (slug) "/player/" (key) } { bdi { (name) } },
            None => bdi { (name) },
        }
    }
}

pub(super) fn server(page: &WebServerPage, slug: &str, now: i64) -> String {
    let games = format!("/s/{slug}/game/");
    layout(
        "Games",
        false,
        html! {
            h1 { "Tak on this server" }
            nav { a href={ "/s/" (slug) "/puzzle" } { "Today's puzzle →" } }
            section {
                h2 { "Being played" }
                @if page.live.is_empty() {
                    p { "No game is being played." }
                } @else {
                    div.scroll { table.live {
                        thead { tr { th { "#" } th { "Players" } th { "Board" } th { "Plies" }
                            th { "To move" } th { "Since" } th { "Deadline" } } }
                        tbody { @for g in &page.live { tr {
                            td { a href={ (games) (g.number) } { "#" (g.number) } }
                            td { bdi { (g.players[0]) } " vs " bdi { (g.players[1]) } }
                            td { (g.board) }
                            td { (g.plies) }
                            td { bdi { (g.to_move) } }
                            td { (time(g.last_ply_ms)) " (" (span(g.last_ply_ms, now)) ")" }
                            td { @match g.deadline_ms { Some(d) => (time(d)), None => "none" } }
                        } } }
                    } }
                }
            }
            section {
                h2 { "Results" }
                @if page.results.is_empty() {
                    p { "No game has finished yet." }
                } @else {
                    div.scroll { table {
                        thead { tr { th { "#" } th { "Players" } th { "Board" } th { "Result" }
                            th { "Finished" } } }
                        tbody { @for r in &page.results { tr {
                            td { a href={ (games) (r.number) } { "#" (r.number) } }
                            td { (player(slug, &r.players[0], r.keys[0].as_deref())) " vs "
                                (player(slug, &r.players[1], r.keys[1].as_deref())) }
                            td { (r.board) }
                            td { (r.code) " " (r.how) }
                            td { (time(r.finished_ms)) }
                        } } }
                    } }
                }
            }
            section {
                h2 { "Tournaments" }
                @if page.tournaments.is_empty() {
                    p { "No tournament has been made here yet." }
                } @else {
                    ul.tournaments { @for t in &page.tournaments { li {
                        a href={ "/s/" (slug) "/tournament/" (t.id) } { bdi { (t.name) } }
                        " (" (t.state) ")"
                    } } }
                }
            }
            section {
                h2 { "Leaderboards" }
                @if page.leaderboards.is_empty() {
                    p { "No rated game has finished yet." }
                }
                @for board in &page.leaderboards { (leaderboard(board, slug)) }
            }
            (puzzlers(&page.puzzlers, slug))
        },
    )
}

fn leaderboard(board: &WebBoard, slug: &str) -> Markup {
    html! {
        h3 { (board.board) }
        div.scroll { table {
            thead { tr { th { "Rank" } th { "Player" } th { "Rating" } th { "W–L–D" } } }
            tbody { @for (i, p) in board.players.iter().enumerate() { tr {
                td { (i + 1) }
                td { (player(slug, &p.name, p.key.as_deref())) }
                td { (format!("{:.0}", p.rating)) }
                td { (p.wins) "–" (p.losses) "–" (p.draws) }
            } } }
        } }
    }
}

/// The puzzle solvers' ratings, as `/leaderboard` shows them, and the way to today's puzzle.
fn puzzlers(players: &[WebPuzzler], slug: &str) -> Markup {
    html! {
        section {
            h2 { "Puzzle solvers" }
            p { a href={ "/s/" (slug) "/puzzle" } { "Today's daily puzzle" } }
            @if players.is_empty() {
                p { "Nobody has finished a puzzle yet." }
            } @else {
                div.scroll { table {
                    thead { tr { th { "Rank" } th { "Player" } th { "Rating" } th { "Solved" }
                        th { "Not" } } }
                    tbody { @for (i, p) in players.iter().enumerate() { tr {
                        td { (i + 1) }
                        td { bdi { (p.name) } }
                        td { (format!("{:.0}", p.rating)) }
                        td { (p.solved) }
                        td { (p.failed) }
                    } } }
                } }
            }
        }
    }
}

/// How a reader looks at a game: at which ply, and from which side.
#[derive(Clone, Copy, Debug)]
pub(super) struct View {
    pub ply: usize,
    /// Seen from Black's side (`?flip=1`).
    pub flipped: bool,
}

pub(super) fn game(game: &WebGame, slug: &str, view: View, now: i64) -> String {
    let View { ply, flipped } = view;
    let flip = if flipped { "?flip=1" } else { "" };
    let here = format!("/s/{slug}/game/{}/", game.number);
    let total = game.plies.len();
    let title = format!("Game #{}", game.number);
    // Every position, replayed once: for the script to draw, and the shown one's notation.
    let viewer = Viewer::of(game);
    let body = html! {
        nav { a href={ "/s/" (slug) } { "← All games of this server" } }
        h1 {
            (title) ": " bdi { (game.players[0]) } (won_mark(game, 0))
            " vs " bdi { (game.players[1]) } (won_mark(game, 1))
        }
        p.meta {
            (game.kind.name()) " on " (game.board) ", komi " (game.komi)
            @if game.rated { ", rated" } @else { ", unrated" }
            ". Started " (time(game.started_ms)) "."
        }
        @if let Some(ratings) = &game.ratings { (rating_line(&game.players, ratings)) }
        p.status #status {
            @if let Some((sentence, code)) = &game.result {
                strong { (code) } " " (isolated(sentence, &game.players))
            } @else if let Some(to_move) = &game.to_move {
                bdi { (to_move) } " to move, since " (time(game.last_ply_ms))
                " (" (span(game.last_ply_ms, now)) ")"
                @if let Some(d) = game.deadline_ms { "; loses on time at " (time(d)) }
                "."
            }
        }
        div.play {
            @if game.pictures {
                figure.board {
                    img #board src={ (here) "board/" (ply) (flip) } data-base={ (here) "board/" }
                        data-flip=(if flipped { "1" } else { "0" })
                        data-viewer=[viewer.as_ref().map(Viewer::json)]
                        data-events=[game.result.is_none().then(|| format!("{here}events"))] width="800"
                        alt={ "The board after ply " (ply) " of " (total) };
                    // Under the board the script draws: flats and pieces in hand.
                    @if game.kind == crate::game::Kind::Tak { figcaption #tally .tally {} }
                }
                div.controls {
                    button #prev type="button" aria-label="Previous ply" { "◀" }
                    input #ply type="range" min="0" max=(total) value=(ply) aria-label="Ply";
                    button #next type="button" aria-label="Next ply" { "▶" }
                    output #plyno for="ply" { "ply " (ply) " of " (total) }
                }
                // The shown position as its notation writes it, to copy into an engine or
                // PTN Ninja (the script keeps it with the board).
                @if let Some(shown) = viewer.as_ref().and_then(|v| v.position(ply)) {
                    div.position {
                        p {
                            label for="position" { (position_name(game.kind)) }
                            input #position type="text" readonly spellcheck="false"
                                value=(shown);
                            button #copy type="button" { "Copy" }
                            @if game.kind == crate::game::Kind::Tak {
                                button #copy-ptn type="button" data-base={ (here) "ptn/" }
                                    title="Copy the game's PTN up to the shown ply" { "Copy PTN" }
                                button #flip type="button" aria-pressed=(flipped)
                                    title="See the board from the other side" { "Flip" }
                            }
                        }
                        // Tak's stacks, read from the TPS by the script.
                        @if game.kind == crate::game::Kind::Tak {
                            p #square .square aria-live="polite" hidden {}
                            p.legend #stacks-legend hidden {
                                "Stacks, bottom up (○ White, ● Black); underlined, the pieces that may be carried off."
                            }
                            ul #stacks .stacks aria-live="polite" {}
                        }
                    }
                }
            } @else {
                p { "A blind game: no pictures while it is being played, only the plies." }
            }
            section.moves {
                h2 { "Moves" }
                (moves(game, ply))
                p.links {
                    a href={ (here) "ptn" } download { "Download the record" }
                    @if let Some(link) = &game.link {
                        " · " a href=(link) rel="noopener noreferrer" { "Open in PTN Ninja" }
                    }
                }
            }
        }
        @if let Some(analysis) = &game.analysis { (analysis_section(game, analysis, &here)) }
    };
    // The tab names the players too (isolated: a name cannot reorder the title).
    let tab = format!(
        "{title}: {} vs {}",
        isolate(&game.players[0]),
        isolate(&game.players[1])
    );
    layout(&tab, game.pictures, body)
}

/// What a position's notation is called: TPS for Tak, Takat's own position string.
fn position_name(kind: crate::game::Kind) -> &'static str {
    match kind {
        crate::game::Kind::Tak => "TPS",
        crate::game::Kind::Takat => "Position",
    }
}

/// The plies two to a move, each a link to the board after it with its `/analyze` mark, and
/// how long its player took over it when that is known.
fn moves(game: &WebGame, current: usize) -> Markup {
    let mark = |i: usize| {
        game.analysis
            .as_ref()
            .and_then(|a| a.plies.get(i))
            .map_or("", |(mark, _)| mark.as_str())
    };
    html! {
        ol.moves {
            li { a href="?ply=0" data-ply="0" aria-current=[(current == 0).then_some("step")] { "start" } }
            @for (i, pair) in game.plies.chunks(2).enumerate() {
                li {
                    span.n { (i + 1) "." }
                    @for (j, ply) in pair.iter().enumerate() {
                        @let n = 2 * i + j + 1;
                        " "
                        a href={ "?ply=" (n) } data-ply=(n)
                            aria-current=[(current == n).then_some("step")] { (ply) (mark(n - 1)) }
                        @if let Some(took) = took(game, n - 1) {
                            " " span.took title="Time taken" { (took) }
                        }
                    }
                }
            }
        }
    }
}

/// "won" beside the name of the player in `seat` (0 White, 1 Black) when they won the game.
fn won_mark(game: &WebGame, seat: usize) -> Markup {
    let won = game.result.as_ref().is_some_and(|(_, code)| match seat {
        0 => code.ends_with("-0") && !code.starts_with("0-"),
        _ => code.starts_with("0-") && !code.ends_with("-0"),
    });
    html! { @if won { " " span.won { "won" } } }
}

/// How long ply `i` (from 0) waited for its player, if both its time and the one before it are
/// known: `<1 min`, `12 min`, `5 h`, `2 d`.
pub(super) fn took(game: &WebGame, i: usize) -> Option<String> {
    let at = *game.ply_ms.get(i).filter(|&&ms| ms > 0)?;
    let since = match i {
        0 => game.started_ms,
        _ => *game.ply_ms.get(i - 1).filter(|&&ms| ms > 0)?,
    };
    Some(match at - since {
        ..=59_999 => "<1 min".to_string(),
        _ => span(since, at),
    })
}

/// The players' ratings before a rated game and what it changed: `alice 1500 → 1516 (+16)`.
fn rating_line(players: &[String; 2], ratings: &[(f64, f64); 2]) -> Markup {
    html! {
        p.meta {
            "Ratings: "
            @for (i, (name, (before, change))) in players.iter().zip(ratings).enumerate() {
                @if i == 1 { "; " }
                bdi { (name) } " "
                (format!("{before:.0} → {:.0} ({change:+.0})", before + change))
            }
            "."
        }
    }
}

/// Where the chart's plot lies across its picture and how many plies it spans (`values` of
/// them from the start), for the script to step the board to a clicked point's ply.
fn plot(values: usize) -> String {
    let (left, right) = crate::render::chart::PLOT_X;
    format!("{left} {right} {}", values.max(2) - 1)
}

/// The game's newest `/analyze`: its chart, and every marked or commented ply with its comment.
fn analysis_section(game: &WebGame, analysis: &WebAnalysis, here: &str) -> Markup {
    html! {
        section.analysis {
            h2 { "Analysis" }
            p.meta {
                "By " bdi { (analysis.annotator) } ", " (time(analysis.made_ms)) ". "
                "The chart's values are from White's side (up: White is better); each comment's \
                 scores are from the side of the player who made the ply."
            }
            img.chart src={ (here) "chart" } width="800"
                data-plot=(plot(analysis.chart_points()))
                title="Click a point to see the board after that ply"
                alt="The evaluation after every ply, from White's side, with the marked plies";
            ul.judged {
                @for ((i, (mark, comment)), ply) in analysis.plies.iter().enumerate().zip(&game.plies) {
                    @if !mark.is_empty() || comment.is_some() {
                        li {
                            a href={ "?ply=" (i + 1) } data-ply=(i + 1) {
                                (i / 2 + 1) @if i % 2 == 0 { "." } @else { "..." } " " (ply) (mark)
                            }
                            @if let Some(comment) = comment { " " (comment) }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_isolated_where_they_stand_as_words() {
        let names = [
            "bob".to_string(),
            "bobby".to_string(),
            "\u{202E}eve".to_string(),
        ];
        assert_eq!(
            isolated("bobby beat bob, not bobcat; \u{202E}eve watched", &names),
            "\u{2068}bobby\u{2069} beat \u{2068}bob\u{2069}, not bobcat; \u{2068}\u{202E}eve\u{2069} watched"
        );
        assert_eq!(isolated("nobody here", &names), "nobody here");
    }
}
