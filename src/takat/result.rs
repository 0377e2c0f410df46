//! The two sides and how a game of Takat ends: below `position` (which sees a finished
//! position) and `game` (which adds repetition and decisions).

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Color {
    /// Player 1: few pieces, builds stacks of six.
    White,
    /// Player 2: many pieces, immobilises White.
    Black,
}

impl Color {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// How a game of Takat ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum Ending {
    /// The board holds enough stacks of six: White wins, whoever built them.
    Sixes {
        count: u32,
    },
    /// The player to move had no legal ply and loses.
    Immobilised {
        loser: Color,
    },
    /// The same position, player to move and just-moved piece for the third time: a draw.
    Repetition,
    Resignation {
        winner: Color,
    },
    Timeout {
        winner: Color,
    },
    DrawAgreed,
    Abandoned,
}

impl Ending {
    pub fn winner(&self) -> Option<Color> {
        match *self {
            Ending::Sixes { .. } => Some(Color::White),
            Ending::Immobilised { loser } => Some(loser.opponent()),
            Ending::Resignation { winner } | Ending::Timeout { winner } => Some(winner),
            Ending::Repetition | Ending::DrawAgreed | Ending::Abandoned => None,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `0-0` for an abandoned game.
    pub fn code(&self) -> &'static str {
        match (self, self.winner()) {
            (Ending::Abandoned, _) => "0-0",
            (_, Some(Color::White)) => "1-0",
            (_, Some(Color::Black)) => "0-1",
            (_, None) => "1/2-1/2",
        }
    }

    /// How the game was decided, in a few words for a list of games ("**1-0** on time").
    pub fn how(&self) -> &'static str {
        match self {
            Ending::Sixes { .. } => "by a stack of six",
            Ending::Immobilised { .. } => "by immobilising",
            Ending::Repetition => "by repetition",
            Ending::Resignation { .. } => "by resignation",
            Ending::Timeout { .. } => "on time",
            Ending::DrawAgreed => "by agreement",
            Ending::Abandoned => "aborted",
        }
    }

    /// A sentence with the players' names (White's, then Black's).
    pub fn describe_with(&self, names: [&str; 2]) -> String {
        let name = |c: Color| names[c.index()];
        match *self {
            Ending::Sixes { count: 1 } => {
                format!("{} wins with a stack of six", name(Color::White))
            }
            Ending::Sixes { count } => {
                format!("{} wins with {count} stacks of six", name(Color::White))
            }
            Ending::Immobilised { loser } => format!(
                "{} cannot move and loses; {} wins",
                name(loser),
                name(loser.opponent())
            ),
            Ending::Repetition => "Drawn by repetition (the same position a third time)".into(),
            Ending::Resignation { winner } => {
                format!("{} resigns; {} wins", name(winner.opponent()), name(winner))
            }
            Ending::Timeout { winner } => format!(
                "{} ran out of time; {} wins",
                name(winner.opponent()),
                name(winner)
            ),
            Ending::DrawAgreed => "Drawn by agreement".into(),
            Ending::Abandoned => "Game abandoned without result".into(),
        }
    }
}
