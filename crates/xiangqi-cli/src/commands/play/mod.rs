//! `xiangqi play`: a game against the engine in the terminal.
//!
//! The board is drawn after every move ([`board`]); moves are typed in
//! any notation (ICCS, WXF, Chinese, Vietnamese: `xiangqi-notation` detects
//! which); `undo`, `hint`, `flip`, `moves`, `resign`, `help` and `quit` are
//! commands. The game is judged by `xiangqi-adjudication` (default: the
//! online rules, with perpetual check and chase) and its verdict is announced
//! at the end. Input is read line by line, so a script can play too (colours
//! are then off unless `--ansi always`).

mod board;

use std::io::{self, BufRead, IsTerminal, Write};
use std::time::Duration;

use anyhow::{bail, Result};
use xiangqi_adjudication::{Game, Outcome, Preset, RuleSet};
use xiangqi_core::{Color, Move, Position};
use xiangqi_notation::{format as format_move, parse_with, Notation, Style};
use xiangqi_search::{Engine, Limits, SearchResult, DEFAULT_HASH_MB};

use crate::common::PositionArgs;
use board::{draw, BoardStyle};

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Side {
    Red,
    Black,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum When {
    Auto,
    Always,
    Never,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: PositionArgs,
    /// The side you play.
    #[arg(long, value_enum, default_value_t = Side::Red)]
    color: Side,
    /// The engine searches this many plies per move.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// The engine thinks this many milliseconds per move (default 1000).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Notation of the moves shown: iccs, wxf, chinese or vietnamese (input is always auto-detected).
    #[arg(long, default_value_t = Notation::Iccs)]
    notation: Notation,
    /// Letters (FEN: uppercase Red) and ASCII lines instead of Chinese characters.
    #[arg(long)]
    ascii: bool,
    /// ANSI colours: auto (when stdout is a terminal and NO_COLOR is unset), always or never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    ansi: When,
    /// Rule preset that judges the game: online, asian, pikafish, fairy or plain.
    #[arg(long, default_value_t = Preset::Online)]
    rules: Preset,
    /// Engine hash table in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
}

const HELP: &str = "\
Type a move in any notation: h2e2, C2=5, 炮二平五, Pháo 2 bình 5.
Commands:
  undo    take back your last move (and the engine's reply)
  hint    ask the engine for a move
  flip    turn the board around
  moves   list your legal moves
  resign  give up the game
  help    this text
  quit    leave";

struct Session {
    game: Game,
    engine: Engine,
    human: Color,
    limits: Limits,
    notation: Notation,
    style: Style,
    board: BoardStyle,
}

impl Session {
    /// `mv` in the chosen notation, with ICCS alongside when that is another one.
    fn describe(&self, pos: &Position, mv: Move) -> String {
        let text =
            format_move(pos, mv, self.notation, &self.style).unwrap_or_else(|_| mv.to_string());
        if self.notation == Notation::Iccs {
            text
        } else {
            format!("{text} ({mv})")
        }
    }

    fn show_board(&self) {
        let last = self.game.moves().last().copied();
        print!("{}", draw(self.game.position(), &self.board, last));
    }

    fn search(&mut self) -> SearchResult {
        let (_, history) = self
            .game
            .start()
            .replay(self.game.moves())
            .expect("moves of a game replay");
        let pos = self.game.position().clone();
        self.engine.search(&pos, &history, &self.limits, |_| {})
    }

    fn engine_move(&mut self) -> Result<()> {
        let result = self.search();
        let Some(mv) = result.best_move else {
            bail!(
                "the engine found no move in {}",
                self.game.position().to_fen()
            );
        };
        let pos = self.game.position().clone();
        let side = pos.side_to_move();
        println!(
            "Engine ({side}) plays {}   [score {}, depth {}]",
            self.describe(&pos, mv),
            result.score,
            result.depth
        );
        self.game.push(mv)?;
        Ok(())
    }

    /// Takes back plies until the human is to move again, at least one of
    /// the human's moves removed. False when there is none to take back.
    fn undo(&mut self) -> bool {
        let start_side = self.game.start().side_to_move();
        let side_after = |plies: usize| {
            if plies % 2 == 0 {
                start_side
            } else {
                !start_side
            }
        };
        let played = self.game.moves().len();
        let Some(keep) = (0..played).rev().find(|&k| side_after(k) == self.human) else {
            return false;
        };
        let mut game = Game::new(self.game.start().clone(), self.game.rules().clone());
        for &mv in &self.game.moves()[..keep] {
            game.push(mv).expect("replaying moves already played");
        }
        self.game = game;
        true
    }

    fn legal_moves_text(&self) -> String {
        let pos = self.game.position();
        let mut moves: Vec<String> = self
            .game
            .permitted_moves()
            .into_iter()
            .map(|mv| {
                format_move(pos, mv, self.notation, &self.style).unwrap_or_else(|_| mv.to_string())
            })
            .collect();
        moves.sort();
        moves.join(" ")
    }

    fn announce_end(&self) {
        let v = self.game.verdict();
        let headline = match v.outcome.winner() {
            Some(w) if w == self.human => "You win!".to_string(),
            Some(w) => format!("The engine ({w}) wins."),
            None if v.outcome == Outcome::Draw => "Draw.".to_string(),
            None => "The game ended without a result.".to_string(),
        };
        let reason = v.reason.map_or("", |r| r.code());
        println!("Game over: {} ({reason}). {headline}", v.result());
        println!("{}", v.detail);
    }
}

pub fn run(args: Args) -> Result<()> {
    let start = args.start.position()?;
    let limits = match (args.depth, args.movetime) {
        (Some(0), _) => bail!("--depth must be at least 1"),
        (Some(d), _) => Limits::depth(d),
        (None, Some(0)) => bail!("--movetime must be at least 1 ms"),
        (None, ms) => Limits::move_time(Duration::from_millis(ms.unwrap_or(1000))),
    };
    let ansi = match args.ansi {
        When::Always => true,
        When::Never => false,
        When::Auto => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let human = match args.color {
        Side::Red => Color::Red,
        Side::Black => Color::Black,
    };
    let mut s = Session {
        game: Game::new(start, RuleSet::preset(args.rules)),
        engine: Engine::new(args.hash),
        human,
        limits,
        notation: args.notation,
        style: Style::default(),
        board: BoardStyle {
            flipped: human == Color::Black,
            ascii: args.ascii,
            ansi,
        },
    };
    println!("You play {human}. Type a move in any notation, or 'help'.");
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut redraw = true;
    loop {
        if s.game.is_over() {
            s.show_board();
            s.announce_end();
            return Ok(());
        }
        if s.game.position().side_to_move() != s.human {
            if redraw {
                s.show_board();
            }
            s.engine_move()?;
            redraw = true;
            continue;
        }
        if redraw {
            s.show_board();
            redraw = false;
        }
        print!("{} to move> ", s.human);
        io::stdout().flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            println!();
            println!("End of input: game left unfinished.");
            return Ok(());
        }
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => {
                println!("Bye.");
                return Ok(());
            }
            "help" | "?" => println!("{HELP}"),
            "flip" => {
                s.board.flipped = !s.board.flipped;
                redraw = true;
            }
            "moves" => println!("Legal moves: {}", s.legal_moves_text()),
            "hint" => {
                let result = s.search();
                if let Some(mv) = result.best_move {
                    let pos = s.game.position().clone();
                    println!(
                        "Hint: {}   [score {}, depth {}]",
                        s.describe(&pos, mv),
                        result.score,
                        result.depth
                    );
                }
            }
            "undo" => {
                if s.undo() {
                    println!("Taken back; {} to move.", s.human);
                    redraw = true;
                } else {
                    println!("Nothing to take back.");
                }
            }
            "resign" => {
                s.game.resign(s.human)?;
            }
            _ => {
                let pos = s.game.position().clone();
                match parse_with(&pos, text, None, &s.style) {
                    Err(e) => println!("Not a move here: {e}. Type 'help' for help."),
                    Ok(mv) => match s.game.push(mv) {
                        Err(e) => println!("Not allowed: {e}"),
                        Ok(_) => {
                            println!("You play {}", s.describe(&pos, mv));
                            redraw = true;
                        }
                    },
                }
            }
        }
    }
}
