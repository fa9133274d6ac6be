"""Pickling, copying and multiprocessing keep boards (with their move stacks) and values."""

from __future__ import annotations

import copy
import multiprocessing
import pathlib
import pickle

import pytest

import xiangqi
import xiangqi.pgn
from xiangqi import Board


def _played(board: Board) -> tuple:
    return (board.fen(), [str(m) for m in board.move_stack], len(board.legal_moves))


def _board_after(moves: list) -> Board:
    board = Board()
    for m in moves:
        board.push_iccs(m)
    return board


def test_pickle_round_trips_everything() -> None:
    board = _board_after(["h2e2", "h9g7", "e2e6"])
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        clone = pickle.loads(pickle.dumps(board, protocol=protocol))
        assert clone == board
        assert clone.move_stack == board.move_stack
        assert clone.root() == board.root()
        assert clone.pop() == xiangqi.Move.from_iccs("e2e6")
    values = [
        xiangqi.RED,
        xiangqi.CANNON,
        xiangqi.Piece.from_symbol("n"),
        xiangqi.Square("e7"),
        xiangqi.Move.from_iccs("b9c7"),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
    custom = Board("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    custom.push_iccs("e0d0")
    assert pickle.loads(pickle.dumps(custom)).root() == Board("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")


def test_deepcopy_and_copy_are_independent() -> None:
    board = _board_after(["h2e2"])
    deep = copy.deepcopy(board)
    shallow = copy.copy(board)
    deep.push_iccs("h9g7")
    assert board.move_stack == shallow.move_stack == (xiangqi.Move.from_iccs("h2e2"),)
    assert len(deep.move_stack) == 2
    nested = copy.deepcopy({"boards": [board, board]})
    assert nested["boards"][0] == board


def test_setstate_rejects_bad_moves() -> None:
    board = Board()
    try:
        board.__setstate__("h2e2 e0e5")
    except xiangqi.IllegalMoveError as e:
        assert "cannot restore" in str(e)
    else:
        raise AssertionError("an illegal move in the state must be refused")
    assert board == Board() and board.move_stack == ()


def test_multiprocessing_pool() -> None:
    boards = [_board_after(["h2e2", "h9g7"][:n]) for n in range(3)]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        results = pool.map(_played, boards)
    assert results == [_played(b) for b in boards]


# Everything a Dask task receives or returns pickles (issue: corpus objects).

TREE = (
    '[Event "pickle"]\n[Red "A"]\n[Black "B"]\n\n'
    "{before} 1. h2e2 {central cannon} h9g7 (1... b9c7 {the other horse} 2. h0g2 $1) "
    "2. h0g2 $2 i9h9 1-0\n"
)


def _round_trip(value: object) -> object:
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        clone = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert type(clone) is type(value)
    return clone


def _same_game(a: xiangqi.pgn.Game, b: xiangqi.pgn.Game) -> None:
    assert a.to_pgn() == b.to_pgn()
    assert (a.headers, a.moves, a.comments, a.result, a.notation, a.lines()) == (
        b.headers, b.moves, b.comments, b.result, b.notation, b.lines()
    )


def test_games_and_nodes_pickle_exactly() -> None:
    game = xiangqi.pgn.Game.from_pgn(TREE)
    _same_game(_round_trip(game), game)
    # The notation the record was read in survives (not only the moves).
    wxf = next(xiangqi.pgn.read_games(game.to_wxf(drop_variations=True).encode()))
    assert wxf.notation == "wxf"
    _same_game(_round_trip(wxf), wxf)

    reply = game.variations[0].variations[1]  # 1... b9c7
    deep = reply.variations[0]  # 2. h0g2 $1
    for node in (game.root(), reply, deep, game.mainline()[-1]):
        clone = _round_trip(node)
        assert clone.move == node.move and clone.ply() == node.ply()
        assert clone.comment == node.comment and clone.nags == node.nags
        assert clone.board() == node.board()
    # Nodes pickled together share one copy of their game.
    a, b = pickle.loads(pickle.dumps([reply, deep]))
    assert a.game() is b.game() and b.parent == a


def test_bad_states_raise_value_error() -> None:
    game = xiangqi.pgn.Game.from_pgn("1. h2e2 h9g7 *")
    restore, (state,) = game.__reduce__()
    with pytest.raises(ValueError, match="cannot restore a Game"):
        restore(state.replace("h9g7", "h9h0"))  # a horse cannot go there
    with pytest.raises(ValueError, match="cannot restore a Game"):
        restore("{not json")
    node = game.mainline()[1]
    node_restore, (node_state,) = node.__reduce__()
    with pytest.raises(ValueError, match="cannot restore a GameNode"):
        node_restore((node_state[0], [0, 5]))
    verdict_restore, _ = game.adjudicate().__reduce__()
    with pytest.raises(ValueError, match="cannot restore a Verdict"):
        verdict_restore('{"outcome": "nobody"}')


def test_verdicts_pickle_with_their_repetition_report() -> None:
    board = _board_after([])
    board.set_fen("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1")
    for m in "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9".split():
        board.push_iccs(m)
    verdict = board.outcome("asian")
    assert verdict is not None and verdict.reason == "perpetual_check"
    clone = _round_trip(verdict)
    assert (clone.outcome, clone.winner, clone.reason, clone.ply, clone.detail, clone.result) == (
        verdict.outcome, verdict.winner, verdict.reason, verdict.ply, verdict.detail, verdict.result
    )
    assert clone.repetition == verdict.repetition and repr(clone) == repr(verdict)


def test_engine_results_pickle() -> None:
    import xiangqi.engine

    board = _board_after(["h2e2", "h9g7"])
    with xiangqi.engine.SimpleEngine.builtin(hash_mb=1) as engine:
        info = engine.analyse(board, xiangqi.engine.Limit(depth=3))
        lines = engine.analyse(board, xiangqi.engine.Limit(depth=2), multipv=3)
        result = engine.client.search(board, depth=2)
        game = xiangqi.pgn.Game.from_pgn(TREE)
        reviews = xiangqi.engine.annotate(game, engine, xiangqi.engine.Limit(depth=1))
        played = engine.play(board, xiangqi.engine.Limit(nodes=500))
    limit = xiangqi.engine.Limit(nodes=500)
    assert _round_trip(limit) == limit
    played_clone = _round_trip(played)
    assert (played_clone.move, played_clone.ponder, repr(played_clone.info)) == (
        played.move, played.ponder, repr(played.info)
    )
    info_clone = _round_trip(info)
    for name in ("multipv", "depth", "seldepth", "nodes", "nps", "time", "pv", "score", "bound", "turn"):
        assert getattr(info_clone, name) == getattr(info, name), name
    assert repr(info_clone) == repr(info)
    assert info.score is not None and _round_trip(info.score) == info.score
    assert _round_trip(info.score.relative) == info.score.relative
    assert [repr(_round_trip(line)) for line in lines] == [repr(line) for line in lines]
    result_clone = _round_trip(result)
    assert (result_clone.best_move, result_clone.ponder, result_clone.elapsed) == (
        result.best_move, result.ponder, result.elapsed
    )
    assert [repr(i) for i in result_clone.lines] == [repr(i) for i in result.lines]
    fields = ("ply", "move", "mover", "red_score", "red_score_before", "red_winning_chance",
              "eval_comment", "drop", "judgement", "symbol", "best_line")
    for review in reviews:
        clone = _round_trip(review)
        assert [getattr(clone, f) for f in fields] == [getattr(review, f) for f in fields]
    # The annotated game (eval comments, NAGs, engine lines) round-trips too.
    _same_game(_round_trip(game), game)


def test_ratings_and_shards_pickle(tmp_path: pathlib.Path) -> None:
    text = '[Red "A"]\n[Black "B"]\n[Result "1-0"]\n\n1-0\n\n' * 3
    text += '[Red "B"]\n[Black "A"]\n[Result "1-0"]\n\n1-0\n\n'
    path = tmp_path / "rated.pgn"
    path.write_text(text)
    ratings = xiangqi.rate(xiangqi.pgn.read_games(str(path)))
    clone = _round_trip(ratings)
    assert (clone.rated_games, clone.unrated, repr(clone)) == (
        ratings.rated_games, ratings.unrated, repr(ratings)
    )
    assert [repr(p) for p in clone.players] == [repr(p) for p in ratings.players]
    assert clone.elo("A") == ratings.elo("A")
    player = ratings.players[0]
    assert repr(_round_trip(player)) == repr(player)
    for shard in xiangqi.pgn.shards(path, 3):
        assert _round_trip(shard) == shard and repr(_round_trip(shard)) == repr(shard)
