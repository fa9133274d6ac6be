//! Prints what a game file holds: per game the tags, the lines and errors.
fn main() {
    for path in std::env::args().skip(1) {
        match xiangqi_gamefile::Games::open(&path, None) {
            Err(e) => eprintln!("{e}"),
            Ok(games) => {
                for (i, game) in games.enumerate() {
                    match game {
                        Ok(g) => {
                            eprintln!("#{i} {:?}", g.tags);
                            for l in xiangqi_gamefile::lines(&g.mainline) {
                                eprintln!("  {}", l.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "));
                            }
                        }
                        Err(e) => eprintln!("#{i} {e}"),
                    }
                }
            }
        }
    }
}
