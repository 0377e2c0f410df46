//! Conditional plies (`/premove`): answers a player leaves in advance to the replies they
//! expect, in lines ("e3 d3 f3 d4": if e3, d3; if then f3, d4). When the opponent plays what a
//! line foresaw, its answer is played in the same change; lines that no longer match are
//! dropped. They are the owner's alone: answered privately, never in a post or the PTN.

use super::*;

/// Lines one player may keep in a game, and plies in a line: their list fits one message.
const MAX_LINES: usize = 8;
const MAX_PLIES: usize = 16;

/// A ply as the record writes it, without the marks a player may add (`!`, `?`, `'`).
fn bare(ply: &str) -> &str {
    ply.trim_end_matches(['\'', '"', '!', '?'])
}

impl Service {
    /// `/premove line:`: adds lines of conditional plies (branches apart by `;`) for the
    /// player waiting for their opponent's ply, checked ply by ply from the position now.
    pub fn add_conditional(&self, ctx: &Ctx, text: &str) -> Result<Outcome, Refusal> {
        let mut game = self.live(ctx)?;
        let g = self.waiting_for_opponent(&game, ctx)?;
        let (added, warnings) = keep_lines(&mut game.conditional, ctx.user.id, &g, text)?;
        if added == 0 {
            return Ok(self.private_list(&game, ctx, "You had those lines already."));
        }
        self.update(&mut game)?;
        Ok(self.private_list(&game, ctx, &kept_sentence(added, &warnings)))
    }

    /// `/premove` alone: the player's lines in this channel's game, privately.
    pub fn conditional_list(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let game = self.live(ctx)?;
        Self::player_seat(&game, ctx)?;
        Ok(self.private_list(&game, ctx, ""))
    }

    /// `/premove clear:True`: drops every line the player set in this channel's game.
    pub fn clear_conditional(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut game = self.live(ctx)?;
        Self::player_seat(&game, ctx)?;
        let before = game.conditional.len();
        game.conditional.retain(|l| l.owner != ctx.user.id);
        let cleared = before - game.conditional.len();
        if cleared > 0 {
            self.update(&mut game)?;
        }
        Ok(Outcome {
            text: match cleared {
                0 => "You had no conditional plies in this game.".into(),
                n => format!("Cleared: {}.", crate::words::count(n as u64, "line")),
            },
            private: true,
            ..Outcome::default()
        })
    }

    /// The game as it stands, refusing a player who may not set lines now.
    fn waiting_for_opponent(&self, game: &LiveGame, ctx: &Ctx) -> Result<Match, Refusal> {
        let seat = Self::player_seat(game, ctx)?;
        keeps_lines(game)?;
        let g = Self::rebuild(game)?;
        if g.to_move() == seat {
            return refuse(
                "it is your move: a line starts with your opponent's reply to it, so play first \
                 (the Move form takes a line with your ply)",
            );
        }
        Ok(g)
    }

    /// The player's lines as a private answer, after `lead`.
    fn private_list(&self, game: &LiveGame, ctx: &Ctx, lead: &str) -> Outcome {
        let opponent = game
            .players
            .iter()
            .find(|p| p.id != ctx.user.id)
            .map_or("your opponent", |p| p.name.as_str());
        let lines: Vec<String> = game
            .conditional
            .iter()
            .filter(|l| l.owner == ctx.user.id)
            .map(|l| describe(&l.plies))
            .collect();
        let mut text = lead.to_string();
        if lines.is_empty() {
            text.push_str(
                " You have no conditional plies in this game: add a line with /premove line:, \
                 their reply then your answer (e.g. e3 d3; branches apart by ;).",
            );
        } else {
            text.push_str(&format!(
                " Your conditional plies ({opponent} never sees them):"
            ));
            for (n, line) in lines.iter().enumerate() {
                text.push_str(&format!("\n{}. {line}", n + 1));
            }
        }
        Outcome {
            text: text.trim_start().to_string(),
            private: true,
            ..Outcome::default()
        }
    }

    /// Keeps lines for the player who just played `game`'s last ply, in the same change
    /// (the Move form's second field): checked from the position after that ply.
    /// Keeps `owner`'s lines from the position after their ply: what to tell them privately.
    pub(super) fn lines_after_ply(
        game: &mut LiveGame,
        g: &Match,
        owner: u64,
        text: &str,
    ) -> Result<String, Refusal> {
        keeps_lines(game)?;
        let (added, warnings) = keep_lines(&mut game.conditional, owner, g, text)?;
        Ok(match added {
            0 => "You had those lines already.".into(),
            n => kept_sentence(n, &warnings),
        })
    }
}

/// "Kept: 2 lines.", then what the player should know of them.
fn kept_sentence(added: usize, warnings: &[String]) -> String {
    let mut lead = format!("Kept: {}.", crate::words::count(added as u64, "line"));
    for warning in warnings {
        lead.push_str(&format!(" Careful: {warning}."));
    }
    lead
}

/// Adds `owner`'s lines written in `text` (branches apart by `;`), each checked from `g`, to
/// `lines`: how many were new, and what a player should know of them (an answer that leaves a
/// road in one open). A line already covered by a longer one adds nothing; a line that answers
/// a reply differently from one kept is refused.
fn keep_lines(
    lines: &mut Vec<ConditionalLine>,
    owner: u64,
    g: &Match,
    text: &str,
) -> Result<(usize, Vec<String>), Refusal> {
    let mut added = 0;
    let mut warnings = Vec::new();
    for branch in text.split(';').filter(|b| !b.trim().is_empty()) {
        let (plies, warning) = checked_line(g, branch)?;
        warnings.extend(warning);
        let mine = lines.iter().filter(|l| l.owner == owner);
        for other in mine.clone() {
            if let Some(answer) = contradiction(&other.plies, &plies) {
                return refuse(format!(
                    "{} contradicts a line you set: after {} you answer {}; clear your lines \
                     with /premove clear:True to change an answer",
                    plies.join(" "),
                    other.plies[..answer].join(" "),
                    other.plies[answer]
                ));
            }
        }
        if mine.clone().any(|l| l.plies.starts_with(&plies)) {
            continue;
        }
        lines.retain(|l| l.owner != owner || !plies.starts_with(&l.plies));
        if lines.iter().filter(|l| l.owner == owner).count() >= MAX_LINES {
            return refuse(format!(
                "a player keeps at most {MAX_LINES} lines in a game; clear them with /premove \
                 clear:True first"
            ));
        }
        lines.push(ConditionalLine { owner, plies });
        added += 1;
    }
    if added == 0 && text.split(';').all(|b| b.trim().is_empty()) {
        return refuse("give a line: your opponent's reply then your answer, e.g. e3 d3");
    }
    Ok((added, warnings))
}

/// Refuses the games that keep no conditional plies.
fn keeps_lines(game: &LiveGame) -> Result<(), Refusal> {
    if game.purse.is_some() {
        return refuse(
            "conditional plies are not kept in University games: a ply there can cost coins, \
             which only the player decides",
        );
    }
    if game.settings.blind {
        return refuse("a blind game is played from memory, one ply at a time");
    }
    Ok(())
}

/// "if e3: d3, then if f3: d4".
fn describe(plies: &[String]) -> String {
    plies
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let then = if i == 0 { "if" } else { "then if" };
            format!("{then} {}: {}", pair[0], pair.get(1).map_or("", |a| a))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `line` read and played from `g`: their reply, the owner's answer, and so on, each legal and
/// none after the game would end; and, if an answer of the line leaves the opponent a road in
/// one (Tak unanswered), a word saying where.
fn checked_line(g: &Match, line: &str) -> Result<(Vec<String>, Option<String>), Refusal> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() < 2 || words.len() % 2 == 1 {
        return refuse(
            "a line is pairs of plies: your opponent's reply, then your answer (e.g. e3 d3, or \
             e3 d3 f3 d4 to go on; branches apart by ;)",
        );
    }
    if words.len() > MAX_PLIES {
        return refuse(format!("a line holds at most {MAX_PLIES} plies"));
    }
    let mut g = g.clone();
    let mut plies = Vec::with_capacity(words.len());
    let mut warning = None;
    for (n, word) in words.iter().enumerate() {
        if g.result().is_some() {
            return refuse(format!(
                "the game would be over before {word}: end the line at {}",
                plies.last().map_or("", |p: &String| p.as_str())
            ));
        }
        let whose = if n % 2 == 0 { "their" } else { "your" };
        let played = g.play(word).map_err(|why| {
            Refusal(format!(
                "{whose} ply {} in that line cannot be played: {why}",
                crate::tak::quote(word)
            ))
        })?;
        plies.push(bare(&played.text).to_string());
        if n % 2 == 1 && warning.is_none() && leaves_a_road_in_one(&g) {
            warning = Some(format!(
                "in the line {}, after {} your {} leaves them a road in one",
                words.join(" "),
                plies[n - 1],
                plies[n]
            ));
        }
    }
    Ok((plies, warning))
}

/// Whether the player to move (the opponent, after the owner's answer) has a ply that
/// completes a road.
fn leaves_a_road_in_one(g: &Match) -> bool {
    match g {
        Match::Tak(game) => {
            let p = game.position();
            game.result().is_none() && p.is_tak(p.to_move())
        }
        Match::Takat(_) => false,
    }
}

/// Where `new` contradicts `old`: the index in `old` of an answer the two lines give
/// differently after the same plies (answers sit at odd indices).
fn contradiction(old: &[String], new: &[String]) -> Option<usize> {
    let differ = old.iter().zip(new).position(|(a, b)| a != b)?;
    (differ % 2 == 1).then_some(differ)
}

/// The answer `owner` left for the opponent's `played`, if a line foresaw it: lines that follow
/// it go on from after the answer, the rest are dropped.
pub(super) fn follow(lines: &mut Vec<ConditionalLine>, owner: u64, played: &str) -> Option<String> {
    let played = bare(played);
    let answer = lines
        .iter()
        .find(|l| l.owner == owner && l.plies[0] == played)
        .map(|l| l.plies[1].clone());
    lines.retain_mut(|l| {
        if l.owner != owner {
            return true;
        }
        let goes_on =
            l.plies.len() > 2 && l.plies[0] == played && answer.as_deref() == Some(&l.plies[1]);
        if goes_on {
            l.plies.drain(..2);
        }
        goes_on
    });
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(owner: u64, plies: &str) -> ConditionalLine {
        ConditionalLine {
            owner,
            plies: plies.split(' ').map(String::from).collect(),
        }
    }

    #[test]
    fn a_foreseen_reply_is_answered_and_its_lines_go_on() {
        let mut lines = vec![
            line(1, "e3 d3 f3 d4"),
            line(1, "e3 d3 a1 b1"),
            line(1, "d4 c4"),
        ];
        assert_eq!(follow(&mut lines, 1, "e3'"), Some("d3".into()));
        assert_eq!(lines, [line(1, "f3 d4"), line(1, "a1 b1")]);
        assert_eq!(follow(&mut lines, 1, "a1"), Some("b1".into()));
        assert!(lines.is_empty(), "a line played to its end is gone");
    }

    #[test]
    fn an_unforeseen_reply_drops_every_line_of_the_player_to_move() {
        let mut lines = vec![line(1, "e3 d3 f3 d4"), line(2, "a1 a2"), line(1, "d4 c4")];
        assert_eq!(follow(&mut lines, 1, "a5"), None);
        assert_eq!(
            lines,
            [line(2, "a1 a2")],
            "the other player's lines are theirs"
        );
    }

    #[test]
    fn lines_contradict_only_in_an_answer() {
        let plies = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(contradiction(&plies("e3 d3"), &plies("e3 c3")), Some(1));
        assert_eq!(
            contradiction(&plies("e3 d3 f3 d4"), &plies("e3 d3 f3 a1")),
            Some(3)
        );
        assert_eq!(
            contradiction(&plies("e3 d3 f3 d4"), &plies("e3 d3 a2 a1")),
            None
        );
        assert_eq!(contradiction(&plies("e3 d3"), &plies("d4 d3")), None);
    }

    #[test]
    fn a_line_is_checked_ply_by_ply() {
        let setup = crate::tak::Setup::new(5).unwrap();
        let g = Match::Tak(crate::tak::Game::new(crate::tak::Position::new(setup)));
        assert_eq!(checked_line(&g, "a1, e5").unwrap().0, ["a1", "e5"]);
        let odd = checked_line(&g, "a1 e5 a2").unwrap_err().0;
        assert!(odd.contains("pairs of plies"), "{odd}");
        let taken = checked_line(&g, "a1 a1").unwrap_err().0;
        assert!(taken.contains("in that line cannot be played"), "{taken}");
    }
}
