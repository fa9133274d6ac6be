//! `xiangqi moves [--fen FEN] [--json]`: the legal moves, sorted ICCS.

use anyhow::Result;
use serde_json::json;

use crate::common::{print_json, PositionArgs};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: PositionArgs,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let pos = args.start.position()?;
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
