//! A stack of pieces on one square.

use super::ply::Color;

/// The owners of the pieces on a square, bottom first; bit `i` set means piece `i` is Black's.
/// Only the top piece can be a wall or capstone (nothing covers them), so the role of the top
/// lives in the position's bitboards and every buried piece is a flat.
/// 128 bits hold any stack: a game has at most 2 x 64 pieces (see `MAX_PIECES_PER_PLAYER`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Stack {
    bits: u128,
    height: u8,
}

const fn low_bits(n: u32) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

impl Stack {
    pub const fn height(&self) -> usize {
        self.height as usize
    }

    pub const fn is_empty(&self) -> bool {
        self.height == 0
    }

    /// The owner of piece `i`, counted from the bottom.
    pub const fn color_at(&self, i: usize) -> Color {
        if self.bits >> i & 1 == 1 {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn top(&self) -> Option<Color> {
        (self.height > 0).then(|| self.color_at(self.height as usize - 1))
    }

    /// Owners bottom to top.
    pub fn colors(&self) -> impl DoubleEndedIterator<Item = Color> + '_ {
        (0..self.height()).map(|i| self.color_at(i))
    }

    pub(crate) fn push(&mut self, color: Color) {
        self.bits |= (color.index() as u128) << self.height;
        self.height += 1;
    }

    /// Removes the top `n` pieces, returned bottom first in the low bits.
    pub(crate) fn take(&mut self, n: usize) -> u128 {
        let keep = self.height as u32 - n as u32;
        let taken = self.bits >> keep;
        self.bits &= low_bits(keep);
        self.height = keep as u8;
        taken
    }

    /// The owners of the top `n` pieces, bottom first, without removing them.
    pub(crate) const fn peek(&self, n: usize) -> u128 {
        self.bits >> (self.height as usize - n)
    }

    /// Puts `n` pieces (bottom first in `pile`) on top.
    pub(crate) fn put(&mut self, pile: u128, n: usize) {
        self.bits |= (pile & low_bits(n as u32)) << self.height;
        self.height += n as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_and_put_keep_order() {
        let mut s = Stack::default();
        for c in [Color::White, Color::Black, Color::Black, Color::White] {
            s.push(c);
        }
        let pile = s.take(3);
        assert_eq!(s.height(), 1);
        assert_eq!(s.top(), Some(Color::White));
        let mut t = Stack::default();
        t.put(pile, 3);
        let colors: Vec<Color> = t.colors().collect();
        assert_eq!(colors, vec![Color::Black, Color::Black, Color::White]);
    }

    #[test]
    fn a_stack_holds_128_pieces() {
        let mut s = Stack::default();
        for i in 0..128 {
            s.push(if i % 3 == 0 {
                Color::Black
            } else {
                Color::White
            });
        }
        assert_eq!(s.height(), 128);
        assert_eq!(s.color_at(126), Color::Black);
        assert_eq!(s.color_at(127), Color::White);
        let pile = s.take(8);
        assert_eq!(s.height(), 120);
        s.put(pile, 8);
        assert_eq!(s.color_at(126), Color::Black);
        assert_eq!(s.take(128) & 1, 1);
        assert!(s.is_empty());
    }
}
