//! `bredon reshard`: the records of stopped sled folders, dealt out to new folders by the shard
//! each server now hashes to. The sources are only read; the targets are new. Each record goes to
//! the folder of its server's shard (a channel's records follow its game, challenge or last
//! finished game; a tournament's results follow the tournament), and what belongs to no server
//! (players' notification wishes, puzzles' ratings) goes to the folder with shard 0, which keeps
//! the copy of the source with shard 0 when several have one.

use super::layout::{self, Layout};
use super::sled_kv::SledKv;
use super::tx::{Row, Tree};
use super::StoreError;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// What moved: each tree's records (counted again in the targets) and each target's layout.
pub struct Resharded {
    pub counts: Vec<(&'static str, usize)>,
    pub targets: Vec<(PathBuf, Layout)>,
}

/// One new folder's records, by (tree as `Tree::ALL` numbers it, key).
type Folder = BTreeMap<(usize, Vec<u8>), Vec<u8>>;

fn be_u64(bytes: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(bytes.get(..8)?.try_into().ok()?))
}

/// The `guild` of a record in its versioned envelope.
fn guild_field(value: &[u8]) -> Option<u64> {
    let v: serde_json::Value = serde_json::from_slice(value).ok()?;
    v["data"]["guild"].as_u64()
}

/// The largest id a record names (games, challenges, archive, tournaments, letters).
fn id_field(value: &[u8]) -> u64 {
    serde_json::from_slice::<serde_json::Value>(value)
        .ok()
        .and_then(|v| v["data"]["id"].as_u64())
        .unwrap_or(0)
}

/// Where each source row belongs: the server it is of (`None`: of no server).
struct Owners {
    channel: HashMap<u64, u64>,
    archived: HashMap<u64, u64>,
    tournament: HashMap<u64, u64>,
}

impl Owners {
    fn of(trees: &[(String, Vec<Row>)]) -> Owners {
        fn rows<'a>(
            trees: &'a [(String, Vec<Row>)],
            name: &'a str,
        ) -> impl Iterator<Item = &'a Row> {
            trees
                .iter()
                .filter(move |(t, _)| t == name)
                .flat_map(|(_, r)| r)
        }
        let rows = |name: &'static str| rows(trees, name);
        let mut owners = Owners {
            channel: HashMap::new(),
            archived: HashMap::new(),
            tournament: HashMap::new(),
        };
        for (k, v) in rows("archive") {
            if let (Some(id), Some(g)) = (be_u64(k), guild_field(v)) {
                owners.archived.insert(id, g);
            }
        }
        for (k, v) in rows("last") {
            if let (Some(ch), Some(g)) =
                (be_u64(k), be_u64(v).and_then(|id| owners.archived.get(&id)))
            {
                owners.channel.insert(ch, *g);
            }
        }
        // A live game or challenge says where its channel is now.
        for (k, v) in rows("challenges").chain(rows("games")) {
            if let (Some(ch), Some(g)) = (be_u64(k), guild_field(v)) {
                owners.channel.insert(ch, g);
            }
        }
        for (k, v) in rows("tournaments") {
            if let (8, Some(id), Some(g)) = (k.len(), be_u64(k), guild_field(v)) {
                owners.tournament.insert(id, g);
            }
        }
        owners
    }

    fn guild(&self, tree: Tree, key: &[u8], value: &[u8]) -> Option<u64> {
        match tree {
            Tree::Games | Tree::Challenges | Tree::Archive | Tree::Outbox => guild_field(value),
            Tree::Last | Tree::Boards => self.channel.get(&be_u64(key)?).copied(),
            Tree::Timers => self.channel.get(&be_u64(key.get(8..)?)?).copied(),
            Tree::History => be_u64(value),
            Tree::Players
            | Tree::Settings
            | Tree::Wallets
            | Tree::Vacations
            | Tree::Numbers
            | Tree::Notes
            | Tree::Analyses => be_u64(key),
            Tree::Tournaments => self.tournament.get(&be_u64(key)?).copied(),
            Tree::Prefs | Tree::Gateway => None,
            Tree::Puzzles => match key.first() {
                Some(b'a') => guild_field(value),
                Some(b'p' | b'd') => be_u64(&key[1..]),
                _ => None,
            },
        }
    }
}

fn open(dir: &Path) -> Result<SledKv, StoreError> {
    SledKv::open(dir).map_err(|e| match e {
        StoreError::Locked(_) => StoreError::Io(format!(
            "{} is in use by a Bredon process: stop every process before resharding",
            dir.display()
        )),
        e => e,
    })
}

/// Checks that the sources' layouts are one set of shards, each held once.
fn covering(sources: &[(PathBuf, Layout)]) -> Result<(), StoreError> {
    let total = sources[0].1.shards;
    let mut held = vec![0; total as usize];
    for (dir, l) in sources {
        if l.shards != total {
            return Err(StoreError::Io(format!(
                "{} holds {l}, another source shards of {total}: give the folders of one layout",
                dir.display()
            )));
        }
        for s in l.first..=l.last {
            held[s as usize] += 1;
        }
    }
    match held.iter().position(|n| *n != 1) {
        Some(s) => Err(StoreError::Io(format!(
            "shard {s} of {total} is held by {} of the sources: give every folder of the layout, \
             each once",
            held[s]
        ))),
        None => Ok(()),
    }
}

/// Deals the records of the folders `from` out to new folders `to`, for `shards` shards.
pub fn reshard(from: &[PathBuf], to: &[PathBuf], shards: u32) -> Result<Resharded, StoreError> {
    let n = u32::try_from(to.len()).unwrap_or(u32::MAX);
    if from.is_empty() || n == 0 || n > shards {
        return Err(StoreError::Io(format!(
            "give at least one --from folder, and between 1 and {shards} --to folders (one a \
             process)"
        )));
    }
    let mut sources = Vec::new();
    for dir in from {
        let held = layout::read(dir)?.ok_or_else(|| {
            StoreError::Io(format!(
                "{} has no {}: start `bredon run` on it once with the shards it serves, then \
                 reshard",
                dir.display(),
                layout::MANIFEST
            ))
        })?;
        sources.push((dir.clone(), held));
    }
    covering(&sources)?;
    for dir in to {
        let used = std::fs::read_dir(dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(false);
        if used {
            return Err(StoreError::Io(format!(
                "{} is not empty: reshard writes new folders only, never in place",
                dir.display()
            )));
        }
    }
    // The source with shard 0 first: its copy of what belongs to no server is kept.
    sources.sort_by_key(|(_, l)| !l.holds_first());
    let mut dumps = Vec::new();
    for (dir, _) in &sources {
        dumps.push(open(dir)?.dump()?);
    }
    let layouts = Layout::split(shards, n);
    let home = |guild: Option<u64>| match guild {
        Some(g) => layouts
            .iter()
            .position(|l| l.holds(g))
            .expect("the layouts cover every shard"),
        None => 0,
    };
    let mut dealt: Vec<Folder> = vec![Folder::new(); layouts.len()];
    let mut most_id = 0;
    for dump in &dumps {
        let owners = Owners::of(dump);
        for (name, rows) in dump {
            let Some(tree) = Tree::ALL.into_iter().find(|t| t.name() == name) else {
                continue;
            };
            for (k, v) in rows {
                most_id = most_id.max(id_field(v));
                let guild = owners.guild(tree, k, v);
                let target = &mut dealt[home(guild)];
                match target.get(&(tree as usize, k.clone())) {
                    None => {
                        target.insert((tree as usize, k.clone()), v.clone());
                    }
                    Some(kept) if guild.is_none() || kept == v => {}
                    Some(_) => {
                        return Err(StoreError::Io(format!(
                            "two sources have different {name} records under one key: folders \
                             that made the same ids (made before ids carried their folder) cannot \
                             be put together; move them into PostgreSQL one by one instead"
                        )))
                    }
                }
            }
        }
    }
    let mut targets = Vec::new();
    let result = write_targets(to, &layouts, &dealt, most_id, &mut targets);
    if result.is_err() {
        for dir in to {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    result?;
    let mut counts = Vec::new();
    for tree in Tree::ALL {
        let dealt_rows: usize = dealt
            .iter()
            .map(|d| d.keys().filter(|(t, _)| *t == tree as usize).count())
            .sum();
        let stored: usize = targets.iter().map(|kv: &SledKv| kv.len(tree)).sum();
        if stored != dealt_rows {
            return Err(StoreError::Io(format!(
                "{}: {dealt_rows} records dealt out but {stored} found in the new folders",
                tree.name()
            )));
        }
        counts.push((tree.name(), stored));
    }
    Ok(Resharded {
        counts,
        targets: to.iter().cloned().zip(layouts).collect(),
    })
}

fn write_targets(
    to: &[PathBuf],
    layouts: &[Layout],
    dealt: &[Folder],
    most_id: u64,
    opened: &mut Vec<SledKv>,
) -> Result<(), StoreError> {
    for ((dir, layout), rows) in to.iter().zip(layouts).zip(dealt) {
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Io(format!("cannot create {}: {e}", dir.display())))?;
        let kv = SledKv::open(dir)?;
        for ((tree, key), value) in rows {
            kv.insert(Tree::ALL[*tree], key, value)?;
        }
        // Every id made here from now on is above every id the sources' records hold.
        let count = match layout.id_tag() {
            Some(_) => most_id / layout::ID_TAGS + 1,
            None => most_id,
        };
        kv.ids_above(count)?;
        kv.flush()?;
        layout::write(dir, *layout)?;
        opened.push(kv);
    }
    Ok(())
}
