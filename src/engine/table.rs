//! The searcher's transposition table: buckets of two slots, sized by what a search can reach,
//! with win scores stored relative to the node so they read right at any height.

use super::{Limits, WIN_SOON};
use crate::tak::Ply;

#[derive(Clone, Copy, Default)]
pub(super) struct Slot {
    pub key: u64,
    pub best: Option<Ply>,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// The search that wrote it (`Table::age`, set by `put`).
    pub age: u8,
}

/// Bytes a transposition-table entry takes (TEI `Hash` is divided by this).
pub const TABLE_ENTRY_BYTES: usize = std::mem::size_of::<Slot>();

#[derive(Clone, Copy, PartialEq, Default)]
pub(super) enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// A transposition table of buckets of two slots: the first keeps the deepest result seen for
/// its positions (so expensive results survive), the second always takes the newest. A table
/// kept for the next search of the same game keeps its results, but the first slot's deep
/// results of an earlier search give way to any of the present one (its positions have moved on).
pub(super) struct Table {
    slots: Vec<Slot>,
    age: u8,
}

impl Table {
    /// At most `entries` slots (rounded down to a power of two, at least one bucket).
    pub fn new(entries: usize) -> Table {
        Table {
            slots: vec![Slot::default(); Table::slots_for(entries)],
            age: 0,
        }
    }

    /// The slots `Table::new(entries)` has.
    pub fn slots_for(entries: usize) -> usize {
        let n = entries.max(2);
        if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// A new search begins: what the earlier ones wrote is kept but may be replaced first.
    pub fn next_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize & (self.slots.len() - 1)) & !1
    }

    pub fn get(&self, key: u64) -> Option<Slot> {
        let b = self.bucket(key);
        self.slots[b..b + 2].iter().find(|s| s.key == key).copied()
    }

    pub fn put(&mut self, slot: Slot) {
        let slot = Slot {
            age: self.age,
            ..slot
        };
        let b = self.bucket(slot.key);
        let deep = self.slots[b];
        if deep.key == slot.key || slot.depth >= deep.depth || deep.age != self.age {
            if deep.key != slot.key {
                self.slots[b + 1] = deep;
            }
            self.slots[b] = slot;
        } else {
            self.slots[b + 1] = slot;
        }
    }
}

/// Slots for a search within `limits`: enough for the nodes it can visit (its node budget, or
/// about 4,000 nodes a millisecond of its time), at most what the TEI `Hash` option allows, and
/// 2^19 (about 12 MB) when nothing bounds it. A table far larger than the search would only cost
/// the time to clear it.
pub(super) fn table_size(limits: &Limits) -> usize {
    let reach = match (limits.nodes, limits.time) {
        (Some(n), _) => n as usize * 2,
        (None, Some(t)) => t.as_millis() as usize * 4000,
        (None, None) => 1 << 19,
    };
    let reach = reach.clamp(1 << 10, 1 << 22);
    limits.table_entries.map_or(reach, |cap| reach.min(cap))
}

/// Win scores count plies from the root; the table stores them from the node instead, so a
/// result found at one height reads right at another.
pub(super) fn to_table(score: i32, height: i32) -> i32 {
    if score > WIN_SOON {
        score + height
    } else if score < -WIN_SOON {
        score - height
    } else {
        score
    }
}

pub(super) fn from_table(score: i32, height: i32) -> i32 {
    if score > WIN_SOON {
        score - height
    } else if score < -WIN_SOON {
        score + height
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::WIN;

    fn slot(key: u64, depth: u8) -> Slot {
        Slot {
            key,
            depth,
            score: depth as i32,
            ..Slot::default()
        }
    }

    /// Keys 1, 9, 17... share a bucket of an 8-slot table.
    #[test]
    fn the_deep_slot_keeps_the_deepest_result_and_the_other_the_newest() {
        assert_eq!(TABLE_ENTRY_BYTES, 24, "the README gives this size for Hash");
        let mut t = Table::new(8);
        t.put(slot(1, 6));
        t.put(slot(9, 2));
        assert_eq!(t.get(1).map(|s| s.depth), Some(6));
        assert_eq!(t.get(9).map(|s| s.depth), Some(2));
        // A shallow newcomer takes the second slot; the deep result stays.
        t.put(slot(17, 1));
        assert!(t.get(9).is_none());
        assert_eq!(t.get(1).map(|s| s.depth), Some(6));
        // A deeper one takes the first slot, and the old deep result moves to the second.
        t.put(slot(25, 8));
        assert_eq!(t.get(25).map(|s| s.depth), Some(8));
        assert_eq!(t.get(1).map(|s| s.depth), Some(6));
        assert!(t.get(17).is_none());
        // The same key is always replaced in place.
        t.put(slot(25, 3));
        assert_eq!(t.get(25).map(|s| s.depth), Some(3));
        assert_eq!(Table::new(1000).slots.len(), 512);
    }

    #[test]
    fn a_later_search_keeps_the_results_before_it_but_replaces_their_deep_slots_first() {
        let mut t = Table::new(8);
        t.put(slot(1, 6));
        t.next_search();
        assert_eq!(
            t.get(1).map(|s| s.depth),
            Some(6),
            "kept for the next search"
        );
        // A shallow result of the new search takes the deep slot of the old one, which moves on
        // to the second slot rather than staying for good.
        t.put(slot(9, 1));
        assert_eq!(t.get(9).map(|s| s.depth), Some(1));
        assert_eq!(t.get(1).map(|s| s.depth), Some(6));
        t.put(slot(17, 0));
        assert!(t.get(1).is_none(), "the old deep result is gone");
        assert_eq!(
            t.get(9).map(|s| s.depth),
            Some(1),
            "the present one kept the deep slot"
        );
        assert_eq!(t.get(17).map(|s| s.depth), Some(0));
    }

    #[test]
    fn the_table_is_sized_by_what_the_search_can_reach() {
        let by_nodes = Limits {
            nodes: Some(3000),
            ..Limits::default()
        };
        assert_eq!(table_size(&by_nodes), 6000);
        let by_time = Limits {
            time: Some(std::time::Duration::from_millis(100)),
            table_entries: Some(1 << 16),
            ..Limits::default()
        };
        assert_eq!(table_size(&by_time), 1 << 16, "Hash caps it");
        assert_eq!(table_size(&Limits::default()), 1 << 19);
    }

    /// Win scores read back at another height mean the same distance from the node.
    #[test]
    fn win_scores_are_stored_relative_to_the_node() {
        let at_root = WIN - 5;
        assert_eq!(from_table(to_table(at_root, 3), 3), at_root);
        assert_eq!(from_table(to_table(at_root, 3), 1), WIN - 3);
        assert_eq!(from_table(to_table(-at_root, 2), 4), -(WIN - 7));
        assert_eq!(from_table(to_table(250, 4), 9), 250);
    }
}
