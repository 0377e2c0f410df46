//! Analysis of finished games: marks and comments by Bredon's own searcher and Tinuë solver,
//! and by an external TEI engine (Bredon's own `tei` standing in).

use bredon::engine::{tei, Limits};
use bredon::tak::{Color, Game, Position};
use std::time::Duration;

/// White misses a road in one (5. a2 instead of e1) and Black had left White's Tak unanswered
/// (4... e2): both are blunders, named in the comments and the annotated PTN.
#[test]
fn analysis_marks_a_missed_road_in_one_and_an_unanswered_tak() {
    use bredon::engine::analysis::{analyze, Mark};
    let game = Game::from_ptn(include_str!("../data/missed-road.ptn")).unwrap();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let mut progress = Vec::new();
    let a = analyze(&game, &limits, |done, total| progress.push((done, total)));
    // Each position searched, then each ply judged: 11 + 10 steps.
    assert_eq!(progress.len(), 21);
    assert_eq!(progress.last(), Some(&(21, 21)));
    assert!(progress.windows(2).all(|w| w[0].0 < w[1].0));
    let missed = &a.plies[8];
    assert_eq!(missed.mark, Some(Mark::Blunder));
    assert_eq!(
        missed.comment.as_deref(),
        Some("Missed the road in one: e1 wins at once.")
    );
    // The best ply wins at once (e1, or the capstone there).
    assert!(missed.best_score > 900_000, "{}", missed.best_score);
    assert!(missed.best.unwrap().to_string().ends_with("e1"));
    let unanswered = &a.plies[7];
    assert_eq!(unanswered.mark, Some(Mark::Blunder));
    assert!(unanswered
        .comment
        .as_deref()
        .unwrap()
        .starts_with("Leaves the Tak unanswered: White wins with e1"));
    assert_eq!(a.plies[9].mark, None, "the winning ply is not a mistake");
    assert_eq!(a.white_view.len(), 11);
    assert!(
        a.white_view[10] < -900_000,
        "Black has won: {:?}",
        a.white_view
    );
    assert!(a.white_view[8] > 900_000, "White wins in one before 5. a2");
    assert!(a.count(Color::White, Mark::Blunder) >= 1);
    assert!(a.count(Color::Black, Mark::Blunder) >= 1);
    let ptn = game.to_ptn_annotated(&[], &a.notes());
    assert!(
        ptn.contains("5. a2'?? {Missed the road in one: e1 wins at once.} e1"),
        "{ptn}"
    );
    let again = Game::from_ptn(&ptn).unwrap();
    let plain =
        |g: &Game| -> Vec<_> { g.plies().iter().map(|p| (p.undo, p.tak, p.tinue)).collect() };
    assert_eq!(plain(&again), plain(&game), "marks and comments read back");
    // The analysis's marks are read back as the plies' annotations.
    let marked: Vec<_> = again.plies().iter().filter_map(|p| p.annotation).collect();
    assert!(marked.contains(&"??"), "{marked:?}");
    // The same node budget marks the same plies.
    let b = analyze(&game, &limits, |_, _| {});
    assert_eq!(a.white_view, b.white_view);
}

/// A 5x5 game from `tps` (Black to move at move 7) going on with `moves`, analysed.
fn analysed_from(tps: &str, moves: &str) -> bredon::engine::analysis::Analysis {
    let game = Game::from_ptn(&format!("[TPS \"{tps}\"]\n[Size \"5\"]\n\n{moves}\n")).unwrap();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    bredon::engine::analysis::analyze(&game, &limits, |_, _| {})
}

/// White threatens roads on rows 2 and 4 (3e5-111 would block both); Black's e2 blocks one of
/// them, and White wins with the capstone on e4: the comment says one Tak of two was answered
/// and names the ply played.
#[test]
fn a_ply_that_answers_one_tak_of_two_says_so_and_names_the_road_played() {
    let a = analysed_from(
        "x4,222/1,1,1,1,x/x5/1,1,1,1,x/2,2,x3 2 7",
        "7. -- e2 8. Ce4",
    );
    let comment = a.plies[0].comment.clone().unwrap_or_default();
    assert!(
        comment.starts_with("Answers one Tak of two: White still wins with Ce4."),
        "{comment}"
    );
}

/// White threatens a road on row 2 alone; Black plays a5 and White wins with Ce2: the blunder
/// names the road played and a ply that would have held (it does: no road in one, no Tinuë).
#[test]
fn an_unanswered_tak_names_the_road_played_and_a_ply_that_would_have_held() {
    use bredon::engine::tinue::{solve, Verdict};
    let tps = "x5/x5/x5/1,1,1,1,x/2,2,x3 2 3";
    let a = analysed_from(tps, "3. -- a5 4. Ce2");
    let comment = a.plies[0].comment.clone().unwrap();
    let (told, held) = comment.split_once(" would have held").expect(&comment);
    let saving = told
        .strip_prefix("Leaves the Tak unanswered: White wins with Ce2. ")
        .unwrap_or_else(|| panic!("{comment}"));
    assert_eq!(held, " (no road in one, no Tinuë for White).");
    let mut pos = Position::from_tps(tps).unwrap();
    pos.play(bredon::tak::Ply::parse(saving).unwrap().ply)
        .unwrap();
    assert!(!pos.is_tak(Color::White), "{saving} leaves no road in one");
    assert_eq!(solve(&pos, 100_000).verdict, Verdict::NoTinue);
}

/// Comments name the side their scores are for (the mover's); the chart is White's view.
#[test]
fn comment_scores_name_the_side_they_are_for() {
    // Black's d4 lets White in: 2b2+ a1 2b1> is Tinuë after it.
    let a = analysed_from(
        "x,1,x3/x,1,1,x2/x,12,x,2,2/x,121,x3/x,121S,x3 2 10",
        "10. -- d4",
    );
    let comment = a.plies[0].comment.clone().unwrap_or_default();
    assert!(
        comment.starts_with("Walks into a forced win for White: a loss in "),
        "{comment}"
    );
    // The score after the ply and the best ply's are Black's, and say so.
    let (after, best) = comment.split_once(" after it.").expect(&comment);
    assert!(after.contains(" plies for Black (on White's "), "{comment}");
    assert!(
        best.is_empty() || best.ends_with(" for Black)."),
        "{comment}"
    );
}

/// The Tinuë solver in the analysis: a Tinuë played is marked `!` with its line, one missed
/// `??` with the line that was there (White to move has 2b2+ a1 2b1> from this position of a
/// `bredon match` game).
#[test]
fn analysis_marks_a_tinue_found_and_a_tinue_missed() {
    use bredon::engine::analysis::{analyze, Mark};
    let tps = "x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11";
    let game = |moves: &str| {
        Game::from_ptn(&format!("[TPS \"{tps}\"]\n[Size \"5\"]\n\n{moves}\n")).unwrap()
    };
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let found = analyze(&game("11. 2b2+ a1 12. 2b1>"), &limits, |_, _| {});
    assert_eq!(found.plies[0].mark, Some(Mark::Good));
    assert_eq!(
        found.plies[0].comment.as_deref(),
        Some("Tinuë: a road in 3 plies whatever the defence (2b2+ a1 2b1>).")
    );
    assert_eq!(found.plies[2].mark, None, "the road itself is no find");
    let missed = analyze(&game("11. e1 d5"), &limits, |_, _| {});
    assert_eq!(missed.plies[0].mark, Some(Mark::Blunder));
    assert_eq!(
        missed.plies[0].comment.as_deref(),
        Some("Missed Tinuë: 2b2+ a1 2b1> forces a road in 3 plies.")
    );
}

/// An analysis by a TEI engine (Bredon's own `tei` standing in for the server's) says what
/// needs no engine's judgement as Bredon's own analysis does, followed by the engine's chances:
/// a Tinuë made is `!` with its line, one missed `??`, a Tak half answered is named so.
#[test]
fn an_engine_analysis_names_tinue_and_taks_exactly() {
    use bredon::engine::analysis::Mark;
    use bredon::engine::tei_analysis::analyze_tei;
    let analysed = |tps: &str, moves: &str| {
        let ptn = format!("[TPS \"{tps}\"]\n[Size \"5\"]\n\n{moves}\n");
        let game = Game::from_ptn(&ptn).unwrap();
        let mut client =
            tei::Client::spawn(env!("CARGO_BIN_EXE_bredon"), &["tei".to_string()]).unwrap();
        analyze_tei(&game, &mut client, Duration::from_millis(30), |_, _| {}).unwrap()
    };
    let tinue = "x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11";
    let found = analysed(tinue, "11. 2b2+ a1 12. 2b1>");
    assert_eq!(found.plies[0].mark, Some(Mark::Good));
    let comment = found.plies[0].comment.clone().unwrap();
    assert!(
        comment.starts_with(
            "Tinuë: a road in 3 plies whatever the defence (2b2+ a1 2b1>). (Bredon gives White "
        ),
        "{comment}"
    );
    let missed = analysed(tinue, "11. e1 d5");
    assert_eq!(missed.plies[0].mark, Some(Mark::Blunder));
    let comment = missed.plies[0].comment.clone().unwrap();
    assert!(
        comment.starts_with("Missed Tinuë: 2b2+ a1 2b1> forces a road in 3 plies. (Bredon"),
        "{comment}"
    );
    let half = analysed(
        "x4,222/1,1,1,1,x/x5/1,1,1,1,x/2,2,x3 2 7",
        "7. -- e2 8. Ce4",
    );
    let comment = half.plies[0]
        .comment
        .clone()
        .unwrap_or_else(|| format!("{:?}", half.plies[0]));
    assert!(
        comment.starts_with("Answers one Tak of two: White still wins with Ce4."),
        "{comment}"
    );
}

/// The game of `tests/data/repro/analysis-loss-count-5x5.ptn`: after 5... b5 White has a road in
/// three plies (d2 a1 e2), and both the loss Black walked into and the Tinuë White missed next
/// say three, and whose ply it is on.
#[test]
fn a_forced_loss_and_the_missed_tinue_after_it_count_the_same_plies() {
    let game = Game::from_ptn(include_str!("../data/repro/analysis-loss-count-5x5.ptn")).unwrap();
    let limits = Limits {
        nodes: Some(200_000),
        ..Limits::default()
    };
    let a = bredon::engine::analysis::analyze(&game, &limits, |_, _| {});
    let comment = |ply: usize| a.plies[ply].comment.clone().unwrap_or_default();
    let walked_in = comment(9);
    assert!(
        walked_in.contains("a loss in 3 plies for Black (on White's 2nd ply)"),
        "5... b5: {walked_in}"
    );
    let missed = comment(10);
    assert!(
        missed.contains("forces a road in 3 plies"),
        "6. d4: {missed}"
    );
}

/// `tests/data/repro/analysis-tinue-walk-in-6x6.ptn`: 27... 2b2< walks into the Tinuë 28. c1
/// plays, when 3b4-12 (as `bredon tinue --defend` says) was the escape. It went unmarked.
#[test]
fn a_ply_that_walks_into_a_tinue_is_marked_with_the_escape_it_missed() {
    use bredon::engine::analysis::Mark;
    let game =
        Game::from_ptn(include_str!("../data/repro/analysis-tinue-walk-in-6x6.ptn")).unwrap();
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let a = bredon::engine::analysis::analyze(&game, &limits, |_, _| {});
    let walked_in = &a.plies[53];
    assert_eq!(game.plies()[53].ptn, "2b2<");
    assert_eq!(walked_in.mark, Some(Mark::Blunder));
    let comment = walked_in.comment.as_deref().unwrap_or_default();
    assert!(
        comment.starts_with("Walks into Tinuë: White forces a road in 9 plies (c1 ")
            && comment.ends_with("3b4-12 would have held (no road in one, no Tinuë for White)."),
        "{comment}"
    );
    let found = a.plies[54].comment.as_deref().unwrap_or_default();
    assert!(found.starts_with("Tinuë: a road in 9 plies"), "{found}");
}
