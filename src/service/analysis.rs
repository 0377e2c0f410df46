//! After a game: its analysis as players receive it (the annotated PTN, a PTN Ninja link, the
//! evaluation chart, a summary), for `/analyze` and `bredon analyze` alike.

use super::finish::ninja_link;
use super::{refuse, Ctx, Refusal, Service};
use crate::engine::analysis::{analyze, Analysis};
use crate::engine::tei::Client;
use crate::engine::tei_analysis::analyze_tei;
use crate::engine::Limits;
use crate::render::chart::{render_chart, Chart};
use crate::render::{encode_png, Theme};
use crate::store::records::{KeptAnalysis, KeptJudgement};
use crate::tak::{Color, Game, PtnFile};
use std::time::Duration;

/// The analysis of one game, ready to post or write.
#[derive(Clone, Debug)]
pub struct Report {
    /// The game's PTN with the marks and comments, and an `Annotator` tag.
    pub ptn: String,
    pub link: String,
    /// The evaluation chart (PNG).
    pub chart: Vec<u8>,
    /// "White: 1 blunder (??), ..." per player, with the names of the record.
    pub summary: Vec<String>,
    /// Who judged it, as the PTN's `Annotator` tag names them.
    pub annotator: String,
    /// Each marked ply: "12. c3?? Missed the road in one: ..." in game order.
    pub marked: Vec<String>,
    pub analysis: Analysis,
}

/// A finished game of a server to analyse: its id (where the analysis is kept) and record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToAnalyse {
    pub game: u64,
    pub record: String,
}

impl Service {
    /// Keeps `report`, the analysis of this server's finished game `game`, for the game's web
    /// page (replacing an earlier one), durably: the analysis is posted after.
    pub fn keep_analysis(&self, ctx: &Ctx, game: u64, report: &Report) -> Result<(), Refusal> {
        match self.store.archived(game)? {
            Some(archived) if archived.guild == ctx.guild => {}
            _ => return refuse("that game is not a finished game of this server"),
        }
        let kept = KeptAnalysis {
            annotator: report.annotator.clone(),
            made_ms: ctx.now_ms,
            white_view: report.analysis.white_view.clone(),
            plies: report
                .analysis
                .plies
                .iter()
                .map(|j| KeptJudgement {
                    mark: j.mark.map_or("", |m| m.ptn()).to_string(),
                    comment: j.comment.clone(),
                })
                .collect(),
        };
        self.store.keep_analysis(ctx.guild, game, &kept)?;
        self.store.flush()?;
        Ok(())
    }
}

/// The evaluation chart (PNG) of an analysis of `game`: `white_view` for the start and after
/// every ply, `marks` each ply's mark (empty for none), `names` White's first.
pub fn chart_png(
    game: &Game,
    white_view: &[i32],
    marks: &[&str],
    names: [&str; 2],
    theme: &Theme,
) -> Vec<u8> {
    let start = game.start();
    let marks: Vec<(usize, &str)> = marks
        .iter()
        .enumerate()
        .filter(|(_, mark)| !mark.is_empty())
        .map(|(i, &mark)| (i + 1, mark))
        .collect();
    encode_png(&render_chart(
        &Chart {
            white_view,
            marks: &marks,
            first_move: start.move_number(),
            white_first: start.to_move() == Color::White,
            players: names,
        },
        theme,
    ))
}

/// Who judges a game: Bredon's own searcher with these limits per position, or an external
/// TEI engine (a command line) given this long per position.
pub enum Judge<'a> {
    Own(Limits),
    Tei {
        command: &'a [String],
        movetime: Duration,
    },
}

/// The server's TEI engine, if the operator named one (`BREDON_TEI_ENGINE`, a command line):
/// it plays the `strongest` level and judges `/analyze`.
pub fn server_engine() -> Option<Vec<String>> {
    let command: Vec<String> = std::env::var("BREDON_TEI_ENGINE")
        .ok()?
        .split_whitespace()
        .map(String::from)
        .collect();
    (!command.is_empty()).then_some(command)
}

/// Tags `Game::to_ptn` writes itself from the game: not copied from the analysed file.
const GAME_TAGS: [&str; 10] = [
    "Size",
    "Komi",
    "Opening",
    "TPS",
    "Result",
    "Flats1",
    "Flats2",
    "Caps1",
    "Caps2",
    "Annotator",
];

/// Analyses the Tak game in `text` (PTN) with `limits` for every position, reporting progress
/// as `(positions done, positions)`. Refuses Takat records and PTN that does not replay.
pub fn analyze_ptn(
    text: &str,
    limits: &Limits,
    theme: &Theme,
    progress: impl FnMut(usize, usize),
) -> Result<Report, String> {
    analyze_line(text, None, Judge::Own(limits.clone()), theme, progress)
}

/// `analyze_ptn` of one branch of the file (PTN Ninja's variations) when `branch` names one:
/// the line it departs from up to its start, then its own plies. The annotated PTN keeps the
/// whole file, the analysis written on the plies of the line analysed.
pub fn analyze_line(
    text: &str,
    branch: Option<&str>,
    judge: Judge,
    theme: &Theme,
    progress: impl FnMut(usize, usize),
) -> Result<Report, String> {
    if crate::game::is_takat_record(text) {
        return Err(
            "analysis is for Tak games: Takat has no analysis yet (its record is kept as it is)"
                .into(),
        );
    }
    let file = PtnFile::parse(text).map_err(|e| e.to_string())?;
    let (game, warnings) = match branch {
        Some(name) => file.replay_branch(name),
        None => file.replay_with_warnings(),
    }
    .map_err(|e| e.to_string())?;
    if game.plies().is_empty() {
        return Err("the game has no plies to analyse".into());
    }
    let (analysis, annotator) = match judge {
        Judge::Own(limits) => (
            analyze(&game, &limits, progress),
            format!("Bredon {}", env!("CARGO_PKG_VERSION")),
        ),
        Judge::Tei { command, movetime } => {
            let (program, args) = command.split_first().ok_or("no engine named")?;
            let mut client = Client::spawn(program, args)?;
            let analysis = analyze_tei(&game, &mut client, movetime, progress)?;
            let by = format!(
                "{} (through Bredon {})",
                client.name,
                env!("CARGO_PKG_VERSION")
            );
            (analysis, by)
        }
    };
    let mut tags: Vec<(&str, String)> = file
        .tags
        .iter()
        .filter(|(name, _)| !GAME_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)))
        .map(|(name, value)| (name.as_str(), value.clone()))
        .collect();
    tags.push(("Annotator", annotator.clone()));
    let ptn = file.annotated(&game, branch.unwrap_or(""), &tags, &analysis.notes());
    let names = [
        file.tag("Player1").unwrap_or("White").to_string(),
        file.tag("Player2").unwrap_or("Black").to_string(),
    ];
    let marks: Vec<&str> = analysis
        .plies
        .iter()
        .map(|j| j.mark.map_or("", |m| m.ptn()))
        .collect();
    let names_shown = [names[0].as_str(), names[1].as_str()];
    let chart = chart_png(&game, &analysis.white_view, &marks, names_shown, theme);
    let start = game.start();
    let mut marked = Vec::new();
    let mut move_number = start.move_number();
    for (played, judgement) in game.plies().iter().zip(&analysis.plies) {
        if let (Some(mark), Some(comment)) = (judgement.mark, &judgement.comment) {
            let dots = if played.color == Color::White {
                "."
            } else {
                "..."
            };
            marked.push(format!(
                "{move_number}{dots} {}{} {comment}",
                played.ptn_with_marks(),
                mark.ptn()
            ));
        }
        if played.color == Color::Black {
            move_number += 1;
        }
    }
    let mut summary = analysis.summary([&names[0], &names[1]]);
    if let Some(name) = branch {
        summary.insert(0, format!("Branch {name}: {} plies", game.plies().len()));
    }
    // What the reading passed over (a written result the plies contradict, above all: a
    // PlayTak record's as a pasted file's) comes first, as the analysis follows the plies.
    let read = warnings.iter().map(|w| format!("Read with care: {w}."));
    summary.splice(0..0, read);
    Ok(Report {
        link: ninja_link(&ptn),
        annotator,
        summary,
        ptn,
        chart,
        marked,
        analysis,
    })
}
