//! Counted nouns for messages: "1 capstone", "2 capstones", "1 loss", "3 losses", "3 plies".

/// `n` and the noun, plural unless `n` is 1: "es" after s, x, ch and sh ("losses",
/// "searches"), "ies" for a y after a consonant ("plies"), else "s".
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        return format!("1 {noun}");
    }
    if let Some(stem) = noun.strip_suffix('y') {
        if stem.ends_with(|c: char| !"aeiou".contains(c)) {
            return format!("{n} {stem}ies");
        }
    }
    let es = ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end));
    format!("{n} {noun}{}", if es { "es" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(count(1u32, "capstone"), "1 capstone");
        assert_eq!(count(0u32, "win"), "0 wins");
        assert_eq!(count(1u32, "loss"), "1 loss");
        assert_eq!(count(2u32, "loss"), "2 losses");
        assert_eq!(count(5u64, "search"), "5 searches");
        assert_eq!(count(3u32, "ply"), "3 plies");
        assert_eq!(count(2u32, "day"), "2 days");
    }
}
