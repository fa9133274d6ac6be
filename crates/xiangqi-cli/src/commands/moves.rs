//! `xiangqi moves [--fen FEN] [--json]`: the legal moves, sorted ICCS.

use anyhow::Result;
use serde_json::json;

use crate::common::{position_arg, print_json};

#[derive(clap::Args)]
pub struct Args {
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    #[arg(long, help = crate::common::LENIENT_HELP)]
    lenient: bool,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let pos = position_arg(args.fen.as_deref(), args.lenient)?;
    let mut moves: Vec<String> = pos.legal_move_vec().iter().map(|m| m.to_string()).collect();
    moves.sort();
    if args.json {
        print_json(&json!({
            "fen": pos.to_fen(),
            "side_to_move": pos.side_to_move().name(),
            "in_check": pos.is_check(),
            "moves": moves,
        }))
    } else {
        println!("{}", moves.join(" "));
        Ok(())
    }
}
