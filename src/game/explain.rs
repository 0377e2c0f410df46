//! What explains a game without playing one: the rules in a minute with a picture, and any
//! position or record drawn. Shared by `/rules` and `/position` on Discord and `bredon local`.

use super::{Kind, Match};
use crate::render::{self, Theme};

pub const TAK_RULES: &str = "**Tak in one minute.** Make a *road*: a line of your flats or capstone joining opposite edges (no diagonals). \
Each turn, place a piece from your reserve on an empty square — a **flat**, a **wall** (blocks roads, cannot be stacked on) or your **capstone** \
(counts for roads, and alone flattens a wall) — or move a stack you control: pick up to the board size from the top and drop at least one on each square in a straight line. \
On the first turn each player places the **opponent's** flat. If the board fills or a player runs out of pieces, most flats on top wins (komi goes to Black). \
\"Tak!\" means a road is one ply away. Full rules: <https://ustak.org/play-beautiful-game-tak/>";

pub const TAKAT_RULES: &str = "**Takat in one minute.** A hexagonal board of 7 circles (or 19). White has 6 pieces \
and wins with a **stack of six** (any colours, whoever builds it); Black has 15 and wins when White **cannot move** (either side \
who cannot move loses). Each turn, **enter** one of your pieces on an empty circle (never the centre), or **move** the top piece of any \
stack, of either colour, to a neighbouring circle whose stack is at most one higher than the stack it leaves. No stack over six; \
you may not move the piece your opponent just moved; Black must enter while it has fewer pieces on the board than White. \
Two of a colour on top: only that player may move the top piece (gold lock); three on a red circle: nobody may (lock on red). \
Two neighbouring stacks of four or more may not both have safe tops of one colour. The third repetition draws.";

/// The picture that goes with a game's rules in a minute, and its description.
pub fn rules_picture(kind: Kind) -> (Vec<u8>, &'static str) {
    let theme = Theme::default();
    match kind {
        Kind::Takat => {
            let p = crate::takat::Position::from_text("1222,11/2,1212,x/21,22 1 b2 8")
                .expect("a valid sample");
            let scene = render::hex::TakatScene {
                position: &p,
                last: p.parse_ply("c2-b2").ok(),
                players: ["White", "Black"],
                result: None,
                notes: Vec::new(),
                clock: None,
            };
            (
                render::encode_png(&render::hex::render_takat(&scene, &theme)),
                "A Takat board of 7 circles: stacks with their heights, safe tops locked, Black \
                 just moved c2 onto b2.",
            )
        }
        Kind::Tak => {
            let p = crate::tak::Position::from_tps("x5/x2,2S,x2/1,1,1C,1,x/x,2,21,x2/x5 2 8")
                .expect("a valid sample");
            let last = crate::tak::Ply::parse("d3").ok().map(|p| p.ply);
            (
                render::render_png(
                    &render::Scene::of_position(&p, last, ["White", "Black"]),
                    &theme,
                ),
                "A 5x5 board where White threatens a road along rank 3: Tak.",
            )
        }
    }
}

/// Any position drawn, with its description: a TPS (or a Takat position string), or the final
/// position of a PTN game (or Takat record). Exactly one of the two.
pub fn position_picture(
    tps: Option<&str>,
    ptn: Option<&str>,
    theme: &str,
) -> Result<(Vec<u8>, String), String> {
    let theme = Theme::named(theme)?;
    let names = ["Player 1", "Player 2"];
    let game = match (tps, ptn) {
        (Some(tps), None) => match crate::tak::Position::from_tps(tps) {
            Ok(p) => {
                // A lone position: Tak and results come from the position itself.
                let scene = render::Scene::of_position(&p, None, names);
                return Ok((render::render_png(&scene, &theme), render::alt_text(&scene)));
            }
            // Not TPS: perhaps Takat; if not, Tak's reason is the one to show.
            Err(why) => crate::takat::Position::from_text(tps)
                .map(|p| Match::Takat(crate::takat::Game::new(p)))
                .map_err(|_| why)?,
        },
        (None, Some(ptn)) => Match::from_record(ptn)?,
        _ => return Err("give exactly one of tps or ptn".into()),
    };
    Ok((
        game.png(names, &theme, None, crate::render::Display::default()),
        game.alt_text(names),
    ))
}

/// A game's board drawn from its record, as an outcome carries it: the picture and its
/// description. `clock` is the time the player to move has left, in words.
pub fn record_picture(
    record: &str,
    names: [&str; 2],
    theme: &str,
    clock: Option<String>,
    display: crate::render::Display,
) -> Result<(Vec<u8>, String), String> {
    let game = Match::from_record(record)?;
    let theme = Theme::named(theme).unwrap_or_default();
    Ok((
        game.png(names, &theme, clock, display),
        game.alt_text(names),
    ))
}

/// The whole game of a record as an animation (the end-of-game post).
pub fn record_gif(
    record: &str,
    names: [&str; 2],
    theme: &str,
    display: crate::render::Display,
) -> Result<Vec<u8>, String> {
    let game = Match::from_record(record)?;
    let theme = Theme::named(theme).unwrap_or_default();
    Ok(game.gif(names, &theme, display))
}
