//! A tournament's crosstable: one row per player in standing order. A round robin shows each
//! result against each opponent (columns in the same order as the rows); a Swiss tournament shows
//! each round as `+3w` (won against the player ranked 3rd, with White), `=2b`, `-5w`, or `bye`.
//! A legend under the table says what the marks mean (`·`: this round's game, not played yet;
//! a blank: a later round). Sized to what it holds, with text large enough to read at Discord's
//! 400 px preview.

use super::paint::{fill_rect, mix};
use super::text::{self, Align, Weight};
use super::Theme;
use crate::tournament::{halves, quarters, Format, Standing};
use image::{Rgb, RgbImage};

pub struct Crosstable<'a> {
    pub title: &'a str,
    /// By seed.
    pub names: &'a [String],
    pub withdrawn: &'a [bool],
    pub standings: &'a [Standing],
    pub format: Format,
    /// Rounds the tournament will have (Swiss columns).
    pub rounds: usize,
}

const ROW: u32 = 44;
const TEXT: f32 = 26.0;
const HEAD: f32 = 22.0;
const MARGIN: u32 = 20;
/// The legend's line height and what stands between two of its items.
const LEGEND_ROW: u32 = 32;
const LEGEND_GAP: &str = "    ";
pub const WIN: Rgb<u8> = Rgb([0x3C, 0xB3, 0x71]);
pub const LOSS: Rgb<u8> = Rgb([0xE5, 0x3B, 0x3B]);
pub const DRAW: Rgb<u8> = Rgb([0x9A, 0x9A, 0x9A]);

/// A cell: its text and its outcome for the row's player in half points (2 won, 1 drawn, 0
/// lost), which tints it; none while a game runs, for a later round, or on the diagonal.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub text: String,
    pub outcome: Option<u32>,
}

fn tint(outcome: Option<u32>) -> Option<Rgb<u8>> {
    outcome.map(|s| match s {
        2 => WIN,
        1 => DRAW,
        _ => LOSS,
    })
}

fn rr_cells(c: &Crosstable, row: &Standing) -> Vec<Cell> {
    c.standings
        .iter()
        .map(|col| {
            if col.seed == row.seed {
                return Cell {
                    text: "—".into(),
                    outcome: None,
                };
            }
            let games: Vec<_> = row
                .games
                .iter()
                .flatten()
                .filter(|g| g.opponent == Some(col.seed))
                .collect();
            let text = games
                .iter()
                .map(|g| {
                    g.score
                        .map_or("·".to_string(), |s| ["0", "½", "1"][s as usize].into())
                })
                .collect::<Vec<_>>()
                .join(" ");
            let total: Option<u32> = games.iter().map(|g| g.score).sum();
            let outcome = match (games.len(), total) {
                (0, _) | (_, None) => None,
                (n, Some(t)) => Some(match (2 * t).cmp(&(2 * n as u32)) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                }),
            };
            Cell { text, outcome }
        })
        .collect()
}

fn swiss_cells(c: &Crosstable, row: &Standing) -> Vec<Cell> {
    let rank_of = |seed: usize| c.standings.iter().position(|s| s.seed == seed).unwrap_or(0) + 1;
    (0..c.rounds)
        .map(|r| match row.games.get(r).copied().flatten() {
            None => Cell {
                text: String::new(),
                outcome: None,
            },
            Some(g) => match g.opponent {
                None => Cell {
                    text: "bye".into(),
                    outcome: g.score,
                },
                Some(o) => {
                    let sign = match g.score {
                        Some(2) => "+",
                        Some(1) => "=",
                        Some(_) => "-",
                        None => "·",
                    };
                    let colour = if g.white { "w" } else { "b" };
                    Cell {
                        text: format!("{sign}{}{colour}", rank_of(o)),
                        outcome: g.score,
                    }
                }
            },
        })
        .collect()
}

/// The crosstable as text (for a page that sets it as a table of its own): the rounds' or
/// opponents' column labels, each row's cells in standing order, and what the marks mean.
#[derive(Clone, Debug, PartialEq)]
pub struct CrosstableText {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    pub legend: Vec<&'static str>,
}

impl CrosstableText {
    pub fn of(c: &Crosstable) -> CrosstableText {
        let swiss = matches!(c.format, Format::Swiss(_));
        let count = if swiss { c.rounds } else { c.standings.len() };
        CrosstableText {
            columns: (1..=count)
                .map(|i| {
                    if swiss {
                        format!("R{i}")
                    } else {
                        i.to_string()
                    }
                })
                .collect(),
            rows: c.standings.iter().map(|row| cells(c, row)).collect(),
            legend: legend_items(c),
        }
    }
}

fn cells(c: &Crosstable, row: &Standing) -> Vec<Cell> {
    if matches!(c.format, Format::Swiss(_)) {
        swiss_cells(c, row)
    } else {
        rr_cells(c, row)
    }
}

/// What the table's marks mean, as items to set side by side.
fn legend_items(c: &Crosstable) -> Vec<&'static str> {
    let mut items = match c.format {
        Format::Swiss(_) => vec!["+ won, = drawn, - lost", "3w: against the 3rd, with White"],
        _ => vec!["1 won, ½ drawn, 0 lost"],
    };
    items.extend(["· this round, not played yet", "blank: a later round"]);
    if c.withdrawn.iter().any(|&w| w) {
        items.push("(w) withdrew");
    }
    items
}

/// The legend under the table, in lines no wider than `room` pixels: the items in order, as
/// many to a line as fit.
pub fn legend(c: &Crosstable, room: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for item in legend_items(c) {
        match lines.last_mut() {
            Some(line)
                if text::width(&format!("{line}{LEGEND_GAP}{item}"), HEAD, Weight::Regular)
                    <= room =>
            {
                line.push_str(LEGEND_GAP);
                line.push_str(item);
            }
            _ => lines.push(text::fit(item, HEAD, Weight::Regular, room)),
        }
    }
    lines
}

pub fn render_crosstable(c: &Crosstable, theme: &Theme) -> RgbImage {
    let swiss = matches!(c.format, Format::Swiss(_));
    let n = c.standings.len();
    let name_w = c
        .names
        .iter()
        .map(|n| text::width(n, TEXT, Weight::Regular) + 16.0)
        .fold(140.0_f32, f32::max)
        .min(260.0) as u32;
    let rank_w = 48;
    let cell_w = match c.format {
        Format::Swiss(_) => 84,
        Format::DoubleRoundRobin => 76,
        Format::RoundRobin => 52,
    };
    let columns = if swiss { c.rounds } else { n };
    let extra: Vec<(&str, u32)> = if swiss {
        vec![("Pts", 72), ("Bu", 72), ("mBu", 76)]
    } else {
        vec![("Pts", 72), ("SB", 92)]
    };
    let width = 2 * MARGIN
        + rank_w
        + name_w
        + columns as u32 * cell_w
        + extra.iter().map(|(_, w)| w).sum::<u32>();
    let title_h = 56;
    let legend = legend(c, (width - 2 * MARGIN) as f32);
    let table_bottom = MARGIN + title_h + ROW * (n as u32 + 1);
    let height = table_bottom + LEGEND_ROW * legend.len() as u32 + MARGIN;
    let mut img = RgbImage::from_pixel(width, height, theme.background.0);
    let fg = theme.text.0;
    let subtle = theme.subtle_text.0;
    let title = text::fit(c.title, 30.0, Weight::Bold, (width - 2 * MARGIN) as f32);
    text::draw(
        &mut img,
        &title,
        (MARGIN as f32, (MARGIN + title_h / 2) as f32),
        30.0,
        Weight::Bold,
        Align::Left,
        fg,
    );
    let top = MARGIN + title_h;
    let x_cells = MARGIN + rank_w + name_w;
    let mid = |row: u32| (top + row * ROW + ROW / 2) as f32;
    // Header.
    text::draw(
        &mut img,
        "#",
        ((MARGIN + rank_w / 2) as f32, mid(0)),
        HEAD,
        Weight::Bold,
        Align::Center,
        subtle,
    );
    text::draw(
        &mut img,
        "Player",
        ((MARGIN + rank_w) as f32, mid(0)),
        HEAD,
        Weight::Bold,
        Align::Left,
        subtle,
    );
    for i in 0..columns {
        let label = if swiss {
            format!("R{}", i + 1)
        } else {
            (i + 1).to_string()
        };
        let x = x_cells + i as u32 * cell_w + cell_w / 2;
        text::draw(
            &mut img,
            &label,
            (x as f32, mid(0)),
            HEAD,
            Weight::Bold,
            Align::Center,
            subtle,
        );
    }
    let mut x = x_cells + columns as u32 * cell_w;
    for (label, w) in &extra {
        text::draw(
            &mut img,
            label,
            ((x + w / 2) as f32, mid(0)),
            HEAD,
            Weight::Bold,
            Align::Center,
            subtle,
        );
        x += w;
    }
    for (i, row) in c.standings.iter().enumerate() {
        let r = i as u32 + 1;
        let y0 = (top + r * ROW) as i32;
        if i % 2 == 0 {
            fill_rect(
                &mut img,
                MARGIN as i32,
                y0,
                (width - MARGIN) as i32,
                y0 + ROW as i32,
                theme.card.0,
                1.0,
            );
        }
        text::draw(
            &mut img,
            &(i + 1).to_string(),
            ((MARGIN + rank_w / 2) as f32, mid(r)),
            TEXT,
            Weight::Bold,
            Align::Center,
            fg,
        );
        let mut name = c.names[row.seed].clone();
        if c.withdrawn.get(row.seed).copied().unwrap_or(false) {
            name.push_str(" (w)");
        }
        let name = text::fit(&name, TEXT, Weight::Regular, (name_w - 12) as f32);
        text::draw(
            &mut img,
            &name,
            ((MARGIN + rank_w) as f32, mid(r)),
            TEXT,
            Weight::Regular,
            Align::Left,
            fg,
        );
        for (j, cell) in cells(c, row).iter().enumerate() {
            let cx0 = (x_cells + j as u32 * cell_w) as i32;
            if let Some(t) = tint(cell.outcome) {
                let colour = mix(theme.background.0, t, 0.45);
                fill_rect(
                    &mut img,
                    cx0 + 3,
                    y0 + 4,
                    cx0 + cell_w as i32 - 3,
                    y0 + ROW as i32 - 4,
                    colour,
                    1.0,
                );
            }
            text::draw(
                &mut img,
                &cell.text,
                ((cx0 + cell_w as i32 / 2) as f32, mid(r)),
                TEXT,
                Weight::Regular,
                Align::Center,
                fg,
            );
        }
        let mut values = vec![halves(row.score)];
        if swiss {
            values.push(halves(row.first_tiebreak));
            values.push(halves(row.second_tiebreak));
        } else {
            values.push(quarters(row.first_tiebreak));
        }
        let mut x = x_cells + columns as u32 * cell_w;
        for (k, ((_, w), v)) in extra.iter().zip(&values).enumerate() {
            let weight = if k == 0 {
                Weight::Bold
            } else {
                Weight::Regular
            };
            text::draw(
                &mut img,
                v,
                ((x + w / 2) as f32, mid(r)),
                TEXT,
                weight,
                Align::Center,
                fg,
            );
            x += w;
        }
    }
    for (i, line) in legend.iter().enumerate() {
        let mid = table_bottom + LEGEND_ROW * i as u32 + LEGEND_ROW / 2 + 4;
        text::draw(
            &mut img,
            line,
            (MARGIN as f32, mid as f32),
            HEAD,
            Weight::Regular,
            Align::Left,
            subtle,
        );
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Game;

    /// Mid-event: the first round played, the second paired and running, the third to come.
    #[test]
    fn a_legend_under_the_table_explains_its_marks_within_its_width() {
        let theme = Theme::default();
        let names: Vec<String> = ["ann", "bob", "cy", "di"].map(String::from).to_vec();
        let game = |opponent: usize, score| {
            Some(Game {
                opponent: Some(opponent),
                white: opponent > 1,
                score,
            })
        };
        let standings: Vec<Standing> = (0..4)
            .map(|seed| Standing {
                seed,
                score: 1,
                first_tiebreak: 0,
                second_tiebreak: 0,
                games: vec![game(seed ^ 1, Some(1)), game(3 - seed, None)],
            })
            .collect();
        for format in [Format::RoundRobin, Format::Swiss(3)] {
            let c = Crosstable {
                title: "Cup",
                names: &names,
                withdrawn: &[false, false, true, false],
                standings: &standings,
                format,
                rounds: 3,
            };
            let img = render_crosstable(&c, &theme);
            let room = img.width() - 2 * MARGIN;
            let lines = legend(&c, room as f32);
            let said = lines.join(" ");
            for part in [
                "· this round, not played yet",
                "blank: a later round",
                "(w) withdrew",
            ] {
                assert!(said.contains(part), "{format:?}: {said}");
            }
            for line in &lines {
                assert!(
                    text::width(line, HEAD, Weight::Regular) <= room as f32,
                    "{line}"
                );
            }
            // Drawn under the table, inside the margins: the picture is taller by its lines.
            let table_bottom = MARGIN + 56 + ROW * 5;
            let height = table_bottom + LEGEND_ROW * lines.len() as u32 + MARGIN;
            assert_eq!(img.height(), height);
            let ink = |x0: u32, x1: u32| {
                (table_bottom..img.height())
                    .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                    .filter(|&(x, y)| *img.get_pixel(x, y) == theme.subtle_text.0)
                    .count()
            };
            assert!(ink(MARGIN, img.width() - MARGIN) > 100 * lines.len());
            assert_eq!(ink(img.width() - MARGIN, img.width()), 0);
        }
    }
}
