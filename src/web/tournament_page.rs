//! A tournament's page, `/s/{slug}/tournament/{id}`: its standings with the tie-breaks of
//! `/tournament standings`, the crosstable as a table, and every round's pairings linked to
//! their games. A tournament of another server, or none, is the same 404 as any other.

use super::pages::layout;
use super::site::{not_found, Web};
use crate::service::{WebPairing, WebTournament};
use axum::extract::{Path, State};
use axum::response::{Html, IntoResponse, Response};
use maud::{html, Markup};

pub(super) async fn page(
    State(web): State<Web>,
    Path((slug, id)): Path<(String, String)>,
) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return not_found();
    };
    let tournament = web
        .of_server(&slug, move |s, guild| s.web_tournament(guild, id))
        .await;
    match tournament {
        Ok(t) => Html(template(&t, &slug)).into_response(),
        Err(answer) => answer,
    }
}

fn template(t: &WebTournament, slug: &str) -> String {
    let body = html! {
        nav { a href={ "/s/" (slug) } { "← All games of this server" } }
        h1 { bdi { (t.name) } }
        p.meta { (t.format) " · " (t.settings) " · " strong #state { (t.state) } }
        @if t.entrants.is_empty() {
            p { "Nobody has joined yet." }
        } @else if t.standings.is_empty() || t.rounds.is_empty() {
            h2 { "Entrants" }
            ol { @for name in &t.entrants { li { bdi { (name) } } } }
        } @else {
            section {
                h2 { "Standings" }
                (standings(t))
            }
            section {
                h2 { "Crosstable" }
                (crosstable(t))
            }
        }
        @for (r, round) in t.rounds.iter().enumerate().rev() {
            section.round {
                h2 { "Round " (r + 1) }
                ul.pairings { @for pairing in round { li { (pairing_line(pairing, slug)) } } }
            }
        }
    };
    layout(&t.name, false, body)
}

fn standings(t: &WebTournament) -> Markup {
    html! {
        div.scroll { table.compact #standings {
            thead { tr {
                th { "#" } th { "Player" } th { "Pts" }
                @for name in &t.tiebreaks { th { (name) } }
            } }
            tbody { @for row in &t.standings { tr {
                td { (row.rank) }
                td { bdi { (row.name) } @if row.withdrawn { " (w)" } }
                td { (row.points) }
                @for value in &row.tiebreaks { td { (value) } }
            } } }
        } }
    }
}

fn crosstable(t: &WebTournament) -> Markup {
    let cross = &t.crosstable;
    html! {
        div.scroll { table.cross.compact #crosstable {
            thead { tr {
                th { "#" } th { "Player" }
                @for column in &cross.columns { th.cell { (column) } }
                th { "Pts" }
                @for name in &t.tiebreaks { th { (name) } }
            } }
            tbody { @for (row, cells) in t.standings.iter().zip(&cross.rows) { tr {
                td { (row.rank) }
                td { bdi { (row.name) } @if row.withdrawn { " (w)" } }
                @for cell in cells {
                    // Tinted as the picture tints it: won, drawn, lost (none while played).
                    td.cell.won[cell.outcome == Some(2)].drawn[cell.outcome == Some(1)]
                        .lost[cell.outcome == Some(0)] { (cell.text) }
                }
                td { (row.points) }
                @for value in &row.tiebreaks { td { (value) } }
            } } }
        } }
        p.legend { @for (i, item) in cross.legend.iter().enumerate() {
            @if i > 0 { "; " } (item)
        } }
    }
}

/// "alice 1-0 bob (game #12)" as `/tournament pairings` says it, the game a link to its page.
fn pairing_line(p: &WebPairing, slug: &str) -> Markup {
    html! {
        @match &p.black {
            None => { bdi { (p.white) } ": bye" }
            Some(black) => {
                bdi { (p.white) } " " (p.score) " " bdi { (black) }
                @if let Some(n) = p.number {
                    " (" a href={ "/s/" (slug) "/game/" (n) } { "game #" (n) } ")"
                }
            }
        }
    }
}
