//! The shortest forced win: how many plies a Tinuë takes when the attacker plays its quickest
//! threats and the defender its longest defence (minimax over the plies the proof-number solver
//! in `tinue` looks at: the attacker's wins at once and Tak-making plies, every reply of the
//! defender), or, at full width, any forced win near the end of a game (a Gaelet: every ply of
//! both sides, the game ending on flats within the line). Along such a line every ply brings the
//! win one ply nearer, so no position comes twice; the proof-number solver's line needs only *a*
//! proof and can circle (the attacker alternating b2 and b4 while the defender moves a stack back
//! and forth).
//!
//! Iterative deepening over a depth-limited AND/OR search, with a table of what is known for
//! each position: the most plies within which no win is forced, the fewest within which one is.
//! Both are the position's own (nothing depends on the path there), so the table is exact.

use super::tinue::wins;
use crate::tak::{Color, Ply, Position};
use std::collections::HashMap;

/// What the search for the shortest forced road found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortest {
    /// The quickest forced road against the longest defence, ending on the winning ply.
    Line(Vec<Ply>),
    /// No road is forced within the plies allowed (there may be a longer one).
    NoneWithin,
    /// The node budget ran out first.
    Unknown,
}

/// The search's answer and the positions it looked at.
#[derive(Clone, Debug)]
pub struct Forced {
    pub shortest: Shortest,
    pub nodes: usize,
}

/// The quickest road the side to move in `pos` forces by Tinuë, in at most `most` plies.
pub fn shortest_tinue(pos: &Position, most: usize, budget: usize) -> Forced {
    Search::new(pos.to_move(), Width::Threats, budget).run(pos, true, most)
}

/// The longest defence of the side to move in `pos` against the Tinuë of the side that just
/// moved (it made Tak), the line starting with the reply; at most `most` plies.
pub fn longest_defence(pos: &Position, most: usize, budget: usize) -> Forced {
    Search::new(pos.to_move().opponent(), Width::Threats, budget).run(pos, false, most)
}

/// The quickest win of any kind the side to move in `pos` forces with any plies (not threats
/// alone), in at most `most` plies: near the end of a game, a win on flats (a Gaelet).
pub fn shortest_win(pos: &Position, most: usize, budget: usize) -> Forced {
    Search::new(pos.to_move(), Width::Any, budget).run(pos, true, most)
}

/// The longest defence of the side to move in `pos` against a win the side that just moved
/// forces with any plies, the line starting with the reply; at most `most` plies.
pub fn longest_defence_of_win(pos: &Position, most: usize, budget: usize) -> Forced {
    Search::new(pos.to_move().opponent(), Width::Any, budget).run(pos, false, most)
}

/// Which of the attacker's plies a forced line may use.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Width {
    /// Each ply wins at once or makes Tak: a Tinuë.
    Threats,
    /// Any ply: every way to a win, flats included (full width on both sides).
    Any,
}

/// Budget spent.
struct Spent;

/// For one position: no road within `fails` plies; a road within `wins` plies.
#[derive(Clone, Copy)]
struct Known {
    fails: u16,
    wins: u16,
}

struct Search {
    attacker: Color,
    width: Width,
    known: HashMap<u64, Known>,
    nodes: usize,
    budget: usize,
}

impl Search {
    fn new(attacker: Color, width: Width, budget: usize) -> Search {
        Search {
            attacker,
            width,
            known: HashMap::new(),
            nodes: 0,
            budget,
        }
    }

    fn run(mut self, pos: &Position, attacker_moves: bool, most: usize) -> Forced {
        let mut pos = pos.clone();
        let most = most.min(u16::MAX as usize - 1) as u16;
        let found = (|| {
            if pos.is_over() || pos.is_opening_swap() {
                return Ok(Shortest::NoneWithin);
            }
            // The attacker's lines are odd in length; the defender's even but for a reply that
            // hands the attacker the game at once.
            let mut n = if attacker_moves { 1 } else { 2 };
            while n <= most {
                if self.wins_within(&mut pos, attacker_moves, n)? {
                    return self.line(&mut pos, attacker_moves, n).map(Shortest::Line);
                }
                n += 2;
            }
            Ok(Shortest::NoneWithin)
        })();
        Forced {
            shortest: found.unwrap_or(Shortest::Unknown),
            nodes: self.nodes,
        }
    }

    fn wins_within(
        &mut self,
        pos: &mut Position,
        attacker_moves: bool,
        n: u16,
    ) -> Result<bool, Spent> {
        match attacker_moves {
            true => self.attack(pos, n),
            false => self.defend(pos, n),
        }
    }

    fn lookup(&self, pos: &Position, n: u16) -> Option<bool> {
        let k = self.known.get(&pos.hash64())?;
        match () {
            _ if k.wins <= n => Some(true),
            _ if k.fails >= n => Some(false),
            _ => None,
        }
    }

    fn note(&mut self, pos: &Position, n: u16, won: bool) -> bool {
        let k = self.known.entry(pos.hash64()).or_insert(Known {
            fails: 0,
            wins: u16::MAX,
        });
        match won {
            true => k.wins = k.wins.min(n),
            false => k.fails = k.fails.max(n),
        }
        won
    }

    fn count(&mut self) -> Result<(), Spent> {
        self.nodes += 1;
        match self.nodes > self.budget {
            true => Err(Spent),
            false => Ok(()),
        }
    }

    /// The attacker to move forces a road within `n` plies: a ply wins at once, or makes Tak
    /// and every reply loses within `n - 1`.
    fn attack(&mut self, pos: &mut Position, n: u16) -> Result<bool, Spent> {
        if n == 0 {
            return Ok(false);
        }
        if let Some(known) = self.lookup(pos, n) {
            return Ok(known);
        }
        self.count()?;
        // Without a road in one, only a ply that ends the game on flats could win at once.
        if n < 3 && !pos.is_tak(self.attacker) && !may_end_within(pos, 1) {
            return Ok(self.note(pos, n, false));
        }
        let (wins_at_once, threats) = self.threats(pos, n);
        if wins_at_once.is_some() {
            return Ok(self.note(pos, 1, true));
        }
        if n >= 3 {
            // At full width, ordering by the defender's replies costs more than it saves
            // (twice the time to mine the same Gaelets).
            let threats = match self.width {
                Width::Threats => self.narrowest_first(pos, threats),
                Width::Any => threats,
            };
            for ply in threats {
                let undo = pos.play_unchecked(ply);
                let won = self.defend(pos, n - 1);
                pos.undo(undo);
                if won? {
                    return Ok(self.note(pos, n, true));
                }
            }
        }
        Ok(self.note(pos, n, false))
    }

    /// The threats the defender cannot escape at once, those leaving it the fewest replies that
    /// do not lose at once first (a proof is found soonest among them).
    fn narrowest_first(&self, pos: &mut Position, threats: Vec<Ply>) -> Vec<Ply> {
        let mut open: Vec<(usize, Ply)> = threats
            .into_iter()
            .filter_map(|ply| {
                let undo = pos.play_unchecked(ply);
                let replies = self.replies(pos);
                pos.undo(undo);
                let open = replies?.iter().filter(|(_, loses)| loses.is_none()).count();
                Some((open, ply))
            })
            .collect();
        open.sort_by_key(|&(open, _)| open);
        open.into_iter().map(|(_, ply)| ply).collect()
    }

    /// The attacker's ply that wins at once (if any), and the plies it may go on with within
    /// `n` plies: those that make Tak, or, at full width where the game may end on flats within
    /// `n` plies, every ply that does not end the game.
    fn threats(&self, pos: &mut Position, n: u16) -> (Option<Ply>, Vec<Ply>) {
        let any = self.width == Width::Any && may_end_within(pos, n as usize);
        let mut plies = Vec::new();
        pos.generate_plies(&mut plies);
        let mut threats = Vec::new();
        for ply in plies {
            let undo = pos.play_unchecked(ply);
            let kind = match pos.end() {
                Some(end) => Some(wins(end, self.attacker)),
                None if any => Some(false),
                None => pos.is_tak(self.attacker).then_some(false),
            };
            pos.undo(undo);
            match kind {
                Some(true) => return (Some(ply), Vec::new()),
                Some(false) => threats.push(ply),
                None => {}
            }
        }
        (None, threats)
    }

    /// The defender to move loses within `n` plies whatever it replies.
    fn defend(&mut self, pos: &mut Position, n: u16) -> Result<bool, Spent> {
        if n == 0 {
            return Ok(false);
        }
        if let Some(known) = self.lookup(pos, n) {
            return Ok(known);
        }
        self.count()?;
        let replies = match self.replies(pos) {
            Some(replies) => replies,
            None => return Ok(self.note(pos, n, false)),
        };
        // Quick losses first: a road in one needs two plies.
        for &(_, reply_loses) in &replies {
            if reply_loses.is_some_and(|plies| plies > n) {
                return Ok(self.note(pos, n, false));
            }
        }
        // A reply already known to hold out past `n` ends the search at once.
        for &(reply, loses) in &replies {
            if loses.is_none() {
                let undo = pos.play_unchecked(reply);
                let known = self.lookup(pos, n - 1);
                pos.undo(undo);
                if known == Some(false) {
                    return Ok(self.note(pos, n, false));
                }
            }
        }
        for (reply, loses) in replies {
            if loses.is_some() {
                continue;
            }
            let undo = pos.play_unchecked(reply);
            let won = self.attack(pos, n - 1);
            pos.undo(undo);
            if !won? {
                return Ok(self.note(pos, n, false));
            }
        }
        Ok(self.note(pos, n, true))
    }

    /// The defender's replies, each with the plies it loses in when that is known at once (1: it
    /// ends the game for the attacker; 2: it leaves a road in one); `None` if a reply escapes
    /// at once (ends the game otherwise).
    fn replies(&self, pos: &mut Position) -> Option<Vec<(Ply, Option<u16>)>> {
        let mut plies = Vec::new();
        pos.generate_plies(&mut plies);
        let mut out = Vec::with_capacity(plies.len());
        for ply in plies {
            let undo = pos.play_unchecked(ply);
            let loses = match pos.end() {
                Some(end) if wins(end, self.attacker) => Some(1),
                Some(_) => None,
                None if pos.is_tak(self.attacker) => Some(2),
                None => Some(0),
            };
            pos.undo(undo);
            match loses {
                None => return None,
                Some(0) => out.push((ply, None)),
                Some(plies) => out.push((ply, Some(plies))),
            }
        }
        Some(out)
    }

    /// The line from a position forced in exactly `n` plies: the attacker's quickest ply, the
    /// defender's longest reply, to the road.
    fn line(
        &mut self,
        pos: &mut Position,
        attacker_moves: bool,
        n: u16,
    ) -> Result<Vec<Ply>, Spent> {
        let mut line = Vec::new();
        let mut undos = Vec::new();
        let (mut n, mut attacker_moves) = (n, attacker_moves);
        let found = loop {
            let next = match attacker_moves {
                true => self.quickest(pos, n),
                false => self.longest(pos, n),
            };
            let (ply, left) = match next {
                Ok(Some(step)) => step,
                Ok(None) => break Ok(()),
                Err(spent) => break Err(spent),
            };
            line.push(ply);
            undos.push(pos.play_unchecked(ply));
            if pos.end().is_some() {
                break Ok(());
            }
            (n, attacker_moves) = (left, !attacker_moves);
        };
        while let Some(undo) = undos.pop() {
            pos.undo(undo);
        }
        found.map(|()| line)
    }

    /// The attacker's ply that forces the road within `n` plies, and the plies left after it.
    fn quickest(&mut self, pos: &mut Position, n: u16) -> Result<Option<(Ply, u16)>, Spent> {
        let (at_once, threats) = self.threats(pos, n);
        if let Some(ply) = at_once {
            return Ok(Some((ply, 0)));
        }
        for ply in threats {
            let undo = pos.play_unchecked(ply);
            let won = self.defend(pos, n - 1);
            pos.undo(undo);
            if won? {
                return Ok(Some((ply, n - 1)));
            }
        }
        Ok(None)
    }

    /// The defender's reply that holds out longest (within `n` plies), and the plies left after.
    fn longest(&mut self, pos: &mut Position, n: u16) -> Result<Option<(Ply, u16)>, Spent> {
        let Some(replies) = self.replies(pos) else {
            return Ok(None);
        };
        let mut best: Option<(Ply, u16)> = None;
        for (reply, loses) in replies {
            let plies = match loses {
                Some(plies) => plies,
                None => {
                    // The fewest plies the attacker needs after this reply.
                    let undo = pos.play_unchecked(reply);
                    let mut m = n - 1;
                    let mut shorter = Ok(true);
                    while m >= 3 {
                        shorter = self.attack(pos, m - 2);
                        if !matches!(shorter, Ok(true)) {
                            break;
                        }
                        m -= 2;
                    }
                    pos.undo(undo);
                    shorter?;
                    m + 1
                }
            };
            // The first of the longest.
            if best.is_none_or(|(_, b)| plies > b) {
                best = Some((reply, plies));
            }
        }
        Ok(best.map(|(ply, plies)| (ply, plies - 1)))
    }
}

/// Whether the game could end on flats within `plies` plies from `pos`: the side to move places
/// at most half of them rounded up and the other side the rest, and a ply covers at most a row
/// less one of the empty squares.
pub fn may_end_within(pos: &Position, plies: usize) -> bool {
    let left = |color: Color| pos.reserve(color).total() as usize;
    let me = pos.to_move();
    left(me) <= plies.div_ceil(2)
        || left(me.opponent()) <= plies / 2
        || pos.empty_squares().count() as usize <= plies * (pos.size() - 1)
}

/// The positions of a line from `pos`, side to move included: where one comes twice, the line
/// circles.
pub fn repeats(pos: &Position, line: &[Ply]) -> bool {
    let mut pos = pos.clone();
    let mut seen = std::collections::HashSet::from([pos.hash64()]);
    line.iter().any(|&ply| {
        pos.play_unchecked(ply);
        !seen.insert(pos.hash64())
    })
}

/// A line with its circles cut out: from a position that comes again, straight on from its
/// last coming (the same position, so the rest of the line still holds).
pub fn without_circles(pos: &Position, line: &[Ply]) -> Vec<Ply> {
    let mut hashes = vec![pos.hash64()];
    let mut scratch = pos.clone();
    for &ply in line {
        scratch.play_unchecked(ply);
        hashes.push(scratch.hash64());
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        // The last index where the position before ply `i` stands again.
        let last = (i..=line.len())
            .rev()
            .find(|&j| hashes[j] == hashes[i])
            .unwrap_or(i);
        if last >= line.len() {
            break;
        }
        out.push(line[last]);
        i = last + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tinue::{solve, Verdict};

    fn position(tps: &str) -> Position {
        Position::from_tps(tps).unwrap()
    }

    #[test]
    fn a_road_in_one_is_the_shortest_line() {
        let pos = position("x5/1,1,1,1,x/x5/2,2,2,x2/x5 1 5");
        match shortest_tinue(&pos, 21, 10_000).shortest {
            Shortest::Line(line) => assert_eq!(line.len(), 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_shortest_line_is_no_longer_than_the_solvers_and_never_circles() {
        let tps = "2,x,2,x2/2,1,2,2,x/2,221,2,1,1/12221S,x,2,111121,112/x2,1S,x,1 2 23";
        let pos = position(tps);
        let Verdict::Tinue(proof) = solve(&pos, 1_000_000).verdict else {
            panic!("a Tinuë");
        };
        let Shortest::Line(line) = shortest_tinue(&pos, 21, 1_000_000).shortest else {
            panic!("a shortest line");
        };
        assert!(line.len() <= proof.len(), "{line:?} against {proof:?}");
        assert_eq!(line.len() % 2, 1);
        assert!(!repeats(&pos, &line));
        let mut end = pos.clone();
        for &ply in &line {
            end.play(ply).unwrap();
        }
        assert!(end.has_road(pos.to_move()), "the line ends on the road");
    }

    #[test]
    fn too_few_plies_allowed_is_none_within() {
        let tps = "x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11";
        let pos = position(tps);
        assert_eq!(
            shortest_tinue(&pos, 1, 10_000).shortest,
            Shortest::NoneWithin
        );
        assert!(matches!(
            shortest_tinue(&pos, 3, 100_000).shortest,
            Shortest::Line(l) if l.len() == 3
        ));
    }

    #[test]
    fn a_circle_is_cut_out_of_a_line() {
        // White's flat goes a1 -> a2 -> a1: the position after it is the start again.
        let pos = position("x4/x4/x4/1,x,x,2 1 3");
        let text = ["a1+", "d1+", "a2-", "d2-", "a1>"];
        let mut scratch = pos.clone();
        let line: Vec<Ply> = text
            .iter()
            .map(|t| {
                let ply = crate::tak::Ply::parse(t).unwrap().ply;
                scratch.play(ply).unwrap();
                ply
            })
            .collect();
        assert!(repeats(&pos, &line));
        let cut = without_circles(&pos, &line);
        assert_eq!(cut, line[4..].to_vec());
        assert!(!repeats(&pos, &cut));
    }
}
