//! `bredon local`'s delivery: an outcome printed, its pictures and records written to files.

use super::*;

impl Session {
    /// Prints an outcome: the terminal is where it is delivered, so it leaves the outbox.
    pub(super) fn show(&mut self, o: &Outcome) {
        if let Some(letter) = o.letter {
            if let Err(e) = self.service.delivered(letter) {
                eprintln!("{e}");
            }
        }
        let text = for_terminal(&o.text);
        match o.private {
            true => println!("(privately) {text}"),
            false => println!("{text}"),
        }
        if let Some(aside) = &o.aside {
            println!("(privately) {}", for_terminal(aside));
        }
        // A digest's lines, as its direct message on Discord lists them.
        for g in &o.digest {
            let mut line = format!(
                "  - #{} vs {}",
                words::channel_name(g.channel, &self.channels),
                g.opponent
            );
            let ago = span(self.now() - g.since_ms);
            match &g.last_ply {
                Some(ply) => line.push_str(&format!(" · played {ply} {ago} ago")),
                None => line.push_str(&format!(" · started {ago} ago")),
            }
            if let Some(deadline) = g.deadline_ms {
                let left = span(deadline - self.now());
                line.push_str(&format!(" · time runs out in {left}"));
            }
            println!("{line}");
        }
        if let Some(deadline) = o.deadline_ms {
            println!("  time runs out in {}", span(deadline - self.now()));
        }
        if !o.ping.is_empty() {
            let names: Vec<&str> = o.ping.iter().map(|p| p.name.as_str()).collect();
            println!("  (pings {})", names.join(", "));
        }
        if let Some(table) = &o.table {
            print!("{table}");
        }
        if let Some(image) = &o.image {
            self.save("picture", &image.file, &image.png);
        }
        if let Some(board) = &o.board {
            self.pictures += 1;
            let path = self
                .out
                .join(format!("{}-{:03}.png", self.channel, self.pictures));
            let png = explain::record_picture(
                &board.record,
                board.names(),
                &board.theme,
                board.clock.clone(),
                board.display,
            )
            .map(|(png, _)| png);
            match png.map(|png| std::fs::write(&path, png)) {
                Ok(Ok(())) => println!("  picture: {}", path.display()),
                Ok(Err(e)) => println!("  ✗ cannot write {}: {e}", path.display()),
                Err(why) => println!("  ✗ cannot draw the board: {why}"),
            }
        }
        if let (Some(f), Some(board)) = (&o.finished, &o.board) {
            // The record a Discord channel gets: the whole game as GIF and PTN.
            let stem = self
                .out
                .join(format!("{}-{:03}-game", self.channel, self.pictures));
            let gif =
                explain::record_gif(&board.record, board.names(), &board.theme, board.display)
                    .unwrap_or_default();
            let record_ext = f.file.trim_start_matches("game.");
            for (ext, bytes) in [("gif", gif), (record_ext, f.ptn.clone().into_bytes())] {
                let path = stem.with_extension(ext);
                match std::fs::write(&path, bytes) {
                    Ok(()) => println!("  {ext}: {}", path.display()),
                    Err(e) => println!("  ✗ cannot write {}: {e}", path.display()),
                }
            }
        }
        if let Some(f) = &o.finished {
            for (p, rating, change) in &f.ratings {
                println!(
                    "  {} is now rated {rating:.0} on {} ({change:+.0})",
                    p.name, f.rated_board
                );
            }
            // As on Discord: a series is shown once it has points (never for tournament games).
            if let Some(line) = f.series_line(|p| p.name.clone()) {
                println!("  {line}");
            }
            if let Some(link) = &f.link {
                println!("  PTN Ninja: {link}");
            }
        }
        // Discord's "On the web" button; without BREDON_WEB_URL, the page's path alone.
        if let Some(page) = &o.page {
            match crate::cli::web::public_url().ok().flatten() {
                Some(url) => println!("  on the web: {url}{page}"),
                None => println!("  on the web: {page} (below BREDON_WEB_URL)"),
            }
        }
    }
}
