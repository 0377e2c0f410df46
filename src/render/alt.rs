//! Alt text: one plain sentence a screen reader can speak, then the TPS; at most 1024 characters.

use super::Scene;
use crate::tak::{flat_score, Color, Square};

/// Discord's limit for an attachment description.
pub const MAX_ALT: usize = 1024;

pub fn alt_text(scene: &Scene) -> String {
    let p = scene.position;
    let size = p.size();
    let short = |c: Color| shorten(&scene.name(c), 40);
    let name = |c: Color| format!("{} ({})", short(c), c.name());
    let mut parts = vec![format!("{size}x{size} Tak board, move {}", p.move_number())];
    match scene.result {
        Some(r) => parts.push(format!(
            "game over, {}: {}",
            r.ptn(),
            r.describe(p.setup().komi)
        )),
        None => parts.push(format!("{} to move", name(p.to_move()))),
    }
    if let Some(ply) = scene.last {
        let mover = p.to_move().opponent();
        let mut last = format!("last ply {} by {}", ply, short(mover));
        if scene.tinue {
            last.push_str(", Tinuë");
        } else if scene.tak {
            last.push_str(", Tak");
        }
        parts.push(last);
    }
    let komi = p.setup().komi;
    parts.push(format!(
        "flats {}",
        flat_score(p.flat_count(Color::White), p.flat_count(Color::Black), komi)
    ));
    let reserve = |c: Color| {
        let r = p.reserve(c);
        format!(
            "{} {} {}",
            c.name(),
            crate::words::count(r.stones, "stone"),
            crate::words::count(r.caps, "capstone")
        )
    };
    parts.push(format!(
        "reserves {}, {}",
        reserve(Color::White),
        reserve(Color::Black)
    ));
    let mut tall: Vec<(Square, usize)> = p
        .occupied()
        .squares()
        .map(|sq| (sq, p.stack(sq).height()))
        .filter(|&(_, h)| h >= 3)
        .collect();
    tall.sort_by_key(|&(sq, h)| (std::cmp::Reverse(h), sq));
    let tps = format!(". TPS {}", p.to_tps());
    let head = parts.join(", ");
    let mut sentence = head.clone();
    if !tall.is_empty() {
        let mut list = String::from(", tall stacks");
        for (i, (sq, h)) in tall.iter().enumerate() {
            let item = format!("{} {sq} {h}", if i == 0 { "" } else { "," });
            if sentence.len() + list.len() + item.len() + tps.len() > MAX_ALT {
                break;
            }
            list.push_str(&item);
        }
        sentence.push_str(&list);
    }
    let mut out = sentence + &tps;
    if out.len() > MAX_ALT {
        let mut cut = MAX_ALT - '…'.len_utf8();
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
}

pub(super) fn shorten(name: &str, max_chars: usize) -> String {
    if name.chars().count() <= max_chars {
        name.to_string()
    } else {
        name.chars().take(max_chars - 1).collect::<String>() + "…"
    }
}
