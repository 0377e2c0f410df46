//! Tinuë: can the side to move force a road by threats alone? A proof-number search over the
//! attacker's plies that win at once or make Tak (threaten a road in one), against every legal
//! reply of the defender. A reply that ends the game in the defender's favour, or in a draw,
//! refutes; a reply that leaves the attacker a road in one is lost at once and never stored.
//!
//! Written from the published idea (Allis' proof-number search: a node's proof number is how
//! many leaves must still be proven to prove it, its disproof number how many to disprove it;
//! the most-proving leaf is expanded next). The tree lives in one arena of small nodes, each
//! node's children side by side, so a search of millions of nodes costs tens of megabytes.

use crate::tak::{Color, GameResult, Ply, Position};

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker forces a road: its plies and the longest defence, ending on the winning ply.
    Tinue(Vec<Ply>),
    /// Every threat of the attacker can be met (or the attacker has none).
    NoTinue,
    /// The node budget ran out first.
    Unknown,
}

/// The search's verdict and what it cost.
#[derive(Clone, Debug)]
pub struct Solved {
    pub verdict: Verdict,
    /// Nodes made (the budget counts these).
    pub nodes: usize,
    /// For `solve_defence` with `NoTinue`: a reply that escapes (the refutation of the
    /// attacker's last ply).
    pub escape: Option<Ply>,
}

const INFINITE: u32 = u32::MAX / 4;

#[derive(Clone, Copy)]
struct Node {
    /// The ply that led here (none at the root).
    ply: Option<Ply>,
    pn: u32,
    dn: u32,
    /// Children are `first..first + count` in the arena; `count == 0` and not expanded: a leaf.
    first: u32,
    count: u32,
    expanded: bool,
    /// Plies to the road once proven (for the principal variation).
    plies_left: u16,
}

impl Node {
    fn new(ply: Option<Ply>) -> Node {
        Node {
            ply,
            pn: 1,
            dn: 1,
            first: 0,
            count: 0,
            expanded: false,
            plies_left: 0,
        }
    }
}

/// Whether the side to move in `pos` forces a road by Tinuë, within `budget` nodes.
pub fn solve(pos: &Position, budget: usize) -> Solved {
    if pos.is_over() || pos.is_opening_swap() {
        return Solved {
            verdict: Verdict::NoTinue,
            nodes: 1,
            escape: None,
        };
    }
    Search::new(pos.to_move(), true).run(pos, budget)
}

/// Whether the side that just moved in `pos` (it made Tak) keeps its Tinuë whatever the side to
/// move replies: the line then starts with the best defence.
pub fn solve_defence(pos: &Position, budget: usize) -> Solved {
    if pos.is_over() || pos.is_opening_swap() {
        return Solved {
            verdict: Verdict::NoTinue,
            nodes: 1,
            escape: None,
        };
    }
    Search::new(pos.to_move().opponent(), false).run(pos, budget)
}

struct Search {
    nodes: Vec<Node>,
    attacker: Color,
    /// The attacker is to move at the root (else the defender replies first).
    root_or: bool,
    /// A scratch list for move generation.
    plies: Vec<Ply>,
}

impl Search {
    fn new(attacker: Color, root_or: bool) -> Search {
        Search {
            nodes: vec![Node::new(None)],
            attacker,
            root_or,
            plies: Vec::new(),
        }
    }

    fn run(mut self, pos: &Position, budget: usize) -> Solved {
        let mut scratch = pos.clone();
        while self.nodes[0].pn != 0 && self.nodes[0].dn != 0 {
            if self.nodes.len() >= budget {
                return Solved {
                    verdict: Verdict::Unknown,
                    nodes: self.nodes.len(),
                    escape: None,
                };
            }
            self.step(&mut scratch);
        }
        let (verdict, escape) = match self.nodes[0].pn {
            0 => (Verdict::Tinue(self.principal_variation(pos.clone())), None),
            _ if !self.root_or => (Verdict::NoTinue, self.escape(pos)),
            _ => (Verdict::NoTinue, None),
        };
        Solved {
            verdict,
            nodes: self.nodes.len(),
            escape,
        }
    }

    /// The defender's reply at a disproven root: a child disproven, or, where the root was
    /// disproven as it was expanded (a reply that ends the game), that reply.
    fn escape(&self, pos: &Position) -> Option<Ply> {
        let root = self.nodes[0];
        let children = &self.nodes[root.first as usize..(root.first + root.count) as usize];
        if let Some(c) = children.iter().find(|c| c.dn == 0) {
            return c.ply;
        }
        let mut plies = Vec::new();
        pos.generate_plies(&mut plies);
        let mut scratch = pos.clone();
        plies.into_iter().find(|&ply| {
            let undo = scratch.play_unchecked(ply);
            let escapes = scratch.end().is_some_and(|end| !wins(end, self.attacker));
            scratch.undo(undo);
            escapes
        })
    }

    /// Whether the node at `depth` plies below the root is the attacker's to move.
    fn or_at(&self, depth: usize) -> bool {
        depth.is_multiple_of(2) == self.root_or
    }

    /// Walks to the most-proving leaf, expands it, and brings the numbers on the way back up.
    fn step(&mut self, pos: &mut Position) {
        let mut path = vec![0u32];
        let mut undos = Vec::new();
        let mut at = 0usize;
        while self.nodes[at].expanded {
            let n = self.nodes[at];
            let or_node = self.or_at(path.len() - 1);
            let children = n.first as usize..(n.first + n.count) as usize;
            let next = children
                .clone()
                .find(|&c| match or_node {
                    true => self.nodes[c].pn == n.pn,
                    false => self.nodes[c].dn == n.dn,
                })
                .expect("a node's numbers come from a child");
            let ply = self.nodes[next].ply.expect("children have plies");
            undos.push(pos.play_unchecked(ply));
            path.push(next as u32);
            at = next;
        }
        let or_node = self.or_at(path.len() - 1);
        self.expand(at, pos, or_node);
        for depth in (0..path.len()).rev() {
            let i = path[depth] as usize;
            if depth + 1 < path.len() {
                self.update(i, self.or_at(depth));
            }
        }
        while let Some(undo) = undos.pop() {
            pos.undo(undo);
        }
    }

    /// An OR node (attacker to move) keeps the plies that make Tak; a ply that wins proves it.
    /// An AND node (defender to move) keeps the replies that stop every road in one; a reply
    /// that ends the game for the defender (or in a draw) disproves it.
    fn expand(&mut self, at: usize, pos: &mut Position, or_node: bool) {
        let attacker = self.attacker;
        self.plies.clear();
        pos.generate_plies(&mut self.plies);
        let first = self.nodes.len() as u32;
        let mut proven = None;
        let mut disproven = false;
        let plies = std::mem::take(&mut self.plies);
        for &ply in &plies {
            let undo = pos.play_unchecked(ply);
            let keep = match (or_node, pos.end()) {
                (true, Some(end)) => {
                    if wins(end, attacker) {
                        proven = Some(1);
                    }
                    false
                }
                (true, None) => pos.is_tak(attacker),
                (false, Some(end)) => {
                    disproven |= !wins(end, attacker);
                    false
                }
                // A reply that leaves a road in one loses at once: nothing to store.
                (false, None) => !pos.is_tak(attacker),
            };
            pos.undo(undo);
            if proven.is_some() || disproven {
                break;
            }
            if keep {
                self.nodes.push(Node::new(Some(ply)));
            }
        }
        self.plies = plies;
        self.nodes[at].expanded = true;
        if proven.is_some() || disproven {
            self.nodes.truncate(first as usize);
        }
        let count = self.nodes.len() as u32 - first;
        let node = &mut self.nodes[at];
        (node.first, node.count) = (first, count);
        match (proven, disproven, or_node, count) {
            (Some(plies_left), ..) => {
                (node.pn, node.dn, node.plies_left) = (0, INFINITE, plies_left)
            }
            (_, true, ..) => (node.pn, node.dn) = (INFINITE, 0),
            // No threat to make.
            (_, _, true, 0) => (node.pn, node.dn) = (INFINITE, 0),
            // Every reply loses at once: the reply, then the road.
            (_, _, false, 0) => (node.pn, node.dn, node.plies_left) = (0, INFINITE, 2),
            _ => self.update(at, or_node),
        }
    }

    /// A node's numbers from its children's.
    fn update(&mut self, at: usize, or_node: bool) {
        let n = self.nodes[at];
        let children = &self.nodes[n.first as usize..(n.first + n.count) as usize];
        let (mut min_pn, mut sum_pn, mut min_dn, mut sum_dn) = (INFINITE, 0u32, INFINITE, 0u32);
        for c in children {
            min_pn = min_pn.min(c.pn);
            min_dn = min_dn.min(c.dn);
            sum_pn = sum_pn.saturating_add(c.pn).min(INFINITE);
            sum_dn = sum_dn.saturating_add(c.dn).min(INFINITE);
        }
        let (pn, dn) = match or_node {
            true => (min_pn, sum_dn),
            false => (sum_pn, min_dn),
        };
        let plies_left = match (or_node, pn) {
            (true, 0) => children
                .iter()
                .filter(|c| c.pn == 0)
                .map(|c| c.plies_left + 1)
                .min()
                .unwrap_or(0),
            // The longest defence; a reply not stored lost at once (two plies).
            (false, 0) => children
                .iter()
                .map(|c| c.plies_left + 1)
                .max()
                .unwrap_or(0)
                .max(2),
            _ => 0,
        };
        let node = &mut self.nodes[at];
        (node.pn, node.dn, node.plies_left) = (pn, dn, plies_left);
    }

    /// The attacker's quickest proven plies against the longest defence, to the road. Where the
    /// tree stops (a road in one, or replies that all lose at once), the plies are found again
    /// on the board.
    fn principal_variation(&self, mut pos: Position) -> Vec<Ply> {
        let mut line = Vec::new();
        let mut at = 0usize;
        let mut or_node = self.root_or;
        loop {
            let n = self.nodes[at];
            let children = n.first as usize..(n.first + n.count) as usize;
            let next = match or_node {
                true => children
                    .filter(|&c| self.nodes[c].pn == 0)
                    .min_by_key(|&c| self.nodes[c].plies_left),
                false => children.max_by_key(|&c| self.nodes[c].plies_left),
            };
            let Some(next) = next else {
                // Past the tree: any reply (they all lose at once), then the road.
                if !or_node {
                    let Some(reply) = self.ending(&mut pos, false) else {
                        return line;
                    };
                    line.push(reply);
                    pos.play_unchecked(reply);
                    if pos.end().is_some() {
                        return line;
                    }
                }
                line.extend(self.ending(&mut pos, true));
                return line;
            };
            let ply = self.nodes[next].ply.expect("children have plies");
            line.push(ply);
            pos.play_unchecked(ply);
            (at, or_node) = (next, !or_node);
        }
    }

    /// Past the tree: the attacker's winning ply (`or_node`), or a defender's reply (they all
    /// lose at once; one that leaves the game going, so the attacker's road ends the line,
    /// rather than one that ends it for the attacker at once).
    fn ending(&self, pos: &mut Position, or_node: bool) -> Option<Ply> {
        let mut plies = Vec::new();
        pos.generate_plies(&mut plies);
        if !or_node {
            let goes_on = plies.iter().copied().find(|&ply| {
                let undo = pos.play_unchecked(ply);
                let going = pos.end().is_none();
                pos.undo(undo);
                going
            });
            return goes_on.or(plies.first().copied());
        }
        plies.into_iter().find(|&ply| {
            let undo = pos.play_unchecked(ply);
            let fits = match or_node {
                true => pos.end().is_some_and(|end| wins(end, self.attacker)),
                false => true,
            };
            pos.undo(undo);
            fits
        })
    }
}

/// Plies as PTN, each read on the position it is played in.
pub fn ptn_line(position: &Position, plies: &[Ply]) -> Vec<String> {
    let mut pos = position.clone();
    plies
        .iter()
        .map(|&ply| {
            let text = pos.ptn(ply);
            pos.play_unchecked(ply);
            text
        })
        .collect()
}

/// Whether a game's end is the attacker's win.
pub(super) fn wins(end: GameResult, attacker: Color) -> bool {
    match end {
        GameResult::Road { winner, .. } => winner == attacker,
        GameResult::Flats { winner, .. } => winner == Some(attacker),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(tps: &str) -> Position {
        Position::from_tps(tps).unwrap()
    }

    /// Plays a Tinuë line and checks it is one: every attacker ply but the last makes Tak,
    /// every reply is legal, the last ply wins by road for the attacker.
    fn check_line(tps: &str, line: &[Ply]) {
        let mut pos = position(tps);
        let attacker = pos.to_move();
        for (i, &ply) in line.iter().enumerate() {
            pos.play(ply)
                .unwrap_or_else(|e| panic!("ply {i} of {line:?}: {e}"));
            let last = i + 1 == line.len();
            match (i % 2, last) {
                (0, false) => assert!(pos.is_tak(attacker) && pos.end().is_none(), "{i}"),
                (_, true) => assert!(
                    matches!(pos.end(), Some(GameResult::Road { winner, .. }) if winner == attacker),
                    "{line:?} ends {:?}",
                    pos.end()
                ),
                _ => assert!(pos.end().is_none()),
            }
        }
        assert_eq!(line.len() % 2, 1, "the attacker plays first and last");
    }

    fn tinue(tps: &str) -> Vec<Ply> {
        match solve(&position(tps), 1_000_000).verdict {
            Verdict::Tinue(line) => {
                check_line(tps, &line);
                line
            }
            other => panic!("{tps}: {other:?}"),
        }
    }

    #[test]
    fn a_road_in_one_is_a_line_of_one_ply() {
        assert_eq!(tinue("x5/1,1,1,1,x/x5/2,2,2,x2/x5 1 5").len(), 1);
    }

    #[test]
    fn tinue_found_in_self_play_is_proven_with_its_longest_defence() {
        // Positions 3 and 5 plies before a road in games of `bredon match` (hard vs easy, 5x5).
        let three = tinue("x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11");
        assert_eq!(three.len(), 3);
        let five = tinue("2,x,2,x2/2,1,2,2,x/2,221,2,1,1/12221S,x,2,111121,112/x2,1S,x,1 2 23");
        assert_eq!(five.len(), 5);
    }

    #[test]
    fn threats_that_can_all_be_met_are_no_tinue() {
        // Black to move has threats, but White answers each; 2 plies before the real road.
        let tps = "2,x,2,x2/x,1,2,2,x/2,221,2,1,1/12,221S,2,111121,112/x2,1S,x,1 2 22";
        assert_eq!(solve(&position(tps), 2_000_000).verdict, Verdict::NoTinue);
        // No threat to make at all.
        assert_eq!(
            solve(&position("x5/x5/x2,1,x2/x5/x4,2 1 2"), 1000).verdict,
            Verdict::NoTinue
        );
    }

    #[test]
    fn a_defender_who_wins_first_refutes_the_threat() {
        // White threatens a road on row 4 but Black has a road in one on row 2 (Black to reply
        // after any White Tak): White's threats are no Tinuë.
        let tps = "x5/1,1,1,x2/x5/2,2,2,2,x/x5 1 5";
        let solved = solve(&position(tps), 100_000);
        assert_eq!(solved.verdict, Verdict::NoTinue);
        assert!(solved.nodes > 1, "White's threats were looked at");
    }

    #[test]
    fn a_threat_that_opens_the_defenders_road_is_no_tinue() {
        // Black's c4< makes Tak but uncovers White's flat on c4, and White's e1 completes a
        // road at once. (Tiltak's proof search calls this Tinuë: it plays on after e1.)
        let tps = "x,2,1,1,2/x,221S,12C,121,x/x,2,x,1,1/x,2,x,1C,1/2,221,2,212,x 2 18";
        assert_eq!(solve(&position(tps), 1_000_000).verdict, Verdict::NoTinue);
    }

    #[test]
    fn a_defence_is_solved_from_the_defenders_move() {
        // Two roads threatened (rows 2 and 4): any reply, then a road.
        let double = "x5/1,1,1,1,x/x5/1,1,1,1,x/2,2,2,2,2S 2 6";
        match solve_defence(&position(double), 1000).verdict {
            Verdict::Tinue(line) => assert_eq!(line.len(), 2, "{line:?}"),
            other => panic!("{other:?}"),
        }
        // One road threatened (row 2), and Black has five ways to stop it for good.
        let single = "x5/x5/x5/1,1,1,1,x/2,2,x3 2 3";
        let solved = solve_defence(&position(single), 10_000);
        assert_eq!(solved.verdict, Verdict::NoTinue);
        // Its escape is one of them: after it, White has no Tinuë.
        let mut after = position(single);
        after
            .play(solved.escape.expect("the reply that escapes"))
            .unwrap();
        assert_eq!(solve(&after, 10_000).verdict, Verdict::NoTinue);
        // A reply that wins outright escapes too: Black's road in one on row 1.
        let racing = "x5/x5/x5/1,1,1,1,x/2,2,2,2,x 2 5";
        let escape = solve_defence(&position(racing), 1000).escape;
        assert_eq!(
            escape.map(|p| position(racing).ptn(p)).as_deref(),
            Some("e1")
        );
    }

    #[test]
    fn a_spent_budget_says_unknown() {
        let tps = "2,x,2,x2/x,1,2,2,x/2,221,2,1,1/12,221S,2,111121,112/x2,1S,x,1 2 22";
        assert_eq!(solve(&position(tps), 100).verdict, Verdict::Unknown);
    }
}
