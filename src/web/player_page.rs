//! A player's page, `/s/{slug}/player/{key}`: their ratings per size with an inline SVG chart
//! of each size's history (drawn here, no script), their newest results linked to the games,
//! and their record against each opponent. The key is opaque (see `service::web_player`); a key
//! the server does not know is the same 404 as any other address.

use super::pages::{layout, player, time};
use super::site::Web;
use crate::service::{ptn_date, WebPlayerPage, WebRating};
use axum::extract::{Path, State};
use axum::response::{Html, IntoResponse, Response};
use maud::{html, Markup};

pub(super) async fn page(
    State(web): State<Web>,
    Path((slug, key)): Path<(String, String)>,
) -> Response {
    let page = web
        .of_server(&slug, move |s, guild| s.web_player_page(guild, &key))
        .await;
    match page {
        Ok(page) => Html(render(&page, &slug)).into_response(),
        Err(answer) => answer,
    }
}

fn render(page: &WebPlayerPage, slug: &str) -> String {
    let games = format!("/s/{slug}/game/");
    let body = html! {
        nav { a href={ "/s/" (slug) } { "← All games of this server" } }
        h1 { bdi { (page.name) } }
        section {
            h2 { "Ratings" }
            @if page.ratings.is_empty() {
                p { "No rated game has finished yet." }
            }
            @for rating in &page.ratings { (rating_block(rating)) }
        }
        section {
            h2 { "Results" }
            @if page.results.is_empty() {
                p { "No game has finished yet." }
            } @else {
                div.scroll { table.results.compact {
                    thead { tr { th { "#" } th { "Against" } th { "Board" } th { "Result" }
                        th { "Rating" } th { "Finished" } } }
                    tbody { @for r in &page.results { tr {
                        td { a href={ (games) (r.number) } { "#" (r.number) } }
                        td { (player(slug, &r.opponent, Some(&r.opponent_key))) }
                        td { (r.board) " " (r.side) }
                        td { (r.outcome) " " (r.code) " " (r.how) }
                        td { @match r.rating_change {
                            Some(change) => (format!("{change:+.0}")),
                            None => "–",
                        } }
                        td { (time(r.finished_ms)) }
                    } } }
                } }
            }
        }
        section {
            h2 { "Head to head" }
            @if page.rivals.is_empty() {
                p { "No opponent yet." }
            } @else {
                div.scroll { table.compact {
                    thead { tr { th { "Opponent" } th { "Won" } th { "Lost" } th { "Drawn" } } }
                    tbody { @for r in &page.rivals { tr {
                        td { (player(slug, &r.name, Some(&r.key))) }
                        td { (r.wins) } td { (r.losses) } td { (r.draws) }
                    } } }
                } }
            }
        }
    };
    layout(&page.name, false, body)
}

fn rating_block(rating: &WebRating) -> Markup {
    html! {
        h3 { (rating.board) ": " (format!("{:.0}", rating.rating)) }
        p.meta { (rating.wins) " won, " (rating.losses) " lost, " (rating.draws) " drawn" }
        (chart(&rating.history, &rating.board))
    }
}

/// Chart size in the SVG's own units; the style sheet scales it to the column's width, up to a
/// little more than this, so its 15-unit labels read at 12 px on a phone and 16 px on a desktop.
const WIDE: f64 = 480.0;
const HIGH: f64 = 170.0;
const LEFT: f64 = 50.0;
const MARGIN: f64 = 12.0;
/// Below the line: the first and last games' dates.
const BOTTOM: f64 = 26.0;
const FONT: &str = "15";

/// The rating after each rated game, one step per game, as a line with a dot per game (each
/// dot's title says when and what), between the lowest and highest ratings, labelled, with the
/// first and last games' dates below; a caption says what the line is.
fn chart(history: &[(i64, f64)], board: &str) -> Markup {
    if history.len() < 2 {
        return html! {};
    }
    let lowest = history.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let highest = history
        .iter()
        .map(|p| p.1)
        .fold(f64::NEG_INFINITY, f64::max);
    // A flat history still gets a band, so its line sits in the middle.
    let middle = (lowest + highest) / 2.0;
    let (low, high) = (lowest.min(middle - 10.0), highest.max(middle + 10.0));
    let x = |i: usize| LEFT + i as f64 * (WIDE - LEFT - MARGIN) / (history.len() - 1) as f64;
    let y = |r: f64| MARGIN + (high - r) * (HIGH - MARGIN - BOTTOM) / (high - low);
    let line: Vec<String> = history
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.1)))
        .collect();
    let label = format!(
        "{board} rating over {} rated games, from {:.0} to {:.0}",
        history.len() - 1,
        history[0].1,
        history[history.len() - 1].1
    );
    html! {
        svg.chart viewBox={ "0 0 " (WIDE) " " (HIGH) } role="img" aria-label=(label) {
            title { (label) }
            line.axis x1=(LEFT) y1=(y(low)) x2=(WIDE - MARGIN) y2=(y(low)) stroke="gray" {}
            line.axis x1=(LEFT) y1=(y(high)) x2=(WIDE - MARGIN) y2=(y(high)) stroke="gray" {}
            text x="0" y=(y(high) + 5.0) font-size=(FONT) fill="gray" { (format!("{high:.0}")) }
            text x="0" y=(y(low) + 5.0) font-size=(FONT) fill="gray" { (format!("{low:.0}")) }
            text x=(LEFT) y=(HIGH - 4.0) font-size=(FONT) fill="gray" { (ptn_date(history[0].0)) }
            text x=(WIDE - MARGIN) y=(HIGH - 4.0) font-size=(FONT) fill="gray" text-anchor="end" {
                (ptn_date(history[history.len() - 1].0)) }
            polyline.rating points=(line.join(" ")) fill="none" stroke="steelblue" stroke-width="2.5" {}
            @for (i, (ms, r)) in history.iter().enumerate() {
                circle.rating cx=(format!("{:.1}", x(i))) cy=(format!("{:.1}", y(*r))) r="4"
                    fill="steelblue" {
                    title { (super::pages::when(*ms)) ": " (format!("{r:.0}")) }
                }
            }
        }
        p.legend { "Rating after each of the " (history.len() - 1)
            " rated games, oldest on the left; the lines mark the lowest and highest." }
    }
}
