"""The win-rate model and accuracy from Python: the same numbers as the Rust
library (docs/engine-client.md has the formulas)."""

import math

import xiangqi


def test_wdl_sums_to_one_thousand_and_is_symmetric():
    for ply in (0, 30, 120):
        for cp in (-400, -50, 0, 75, 300):
            win, draw, loss = xiangqi.wdl(cp, ply)
            assert win + draw + loss == 1000
            assert xiangqi.wdl(-cp, ply) == (loss, draw, win)
    assert xiangqi.wdl(300, 30)[0] > xiangqi.wdl(100, 30)[0]
    assert math.isclose(xiangqi.expected_score(0, 40), 0.5)
    assert math.isclose(xiangqi.expected_score(120, 40) + xiangqi.expected_score(-120, 40), 1.0)


def test_accuracy_formulas():
    assert math.isclose(xiangqi.move_accuracy(0.0), 99.9999)
    assert math.isclose(xiangqi.move_accuracy(0.10), 103.1668 * math.exp(-0.4354) - 3.1669)
    assert xiangqi.move_accuracy(-0.3) == xiangqi.move_accuracy(0.0)
    assert xiangqi.move_accuracy(0.9) == 0.0
    assert xiangqi.game_accuracy([]) is None
    assert math.isclose(xiangqi.game_accuracy([100.0, 50.0]), (75.0 + 2 / (1 / 100 + 1 / 50)) / 2)
    # A 0% move counts as 10% in the harmonic mean.
    assert math.isclose(xiangqi.game_accuracy([100.0] * 19 + [0.0]), (95.0 + 20 / (0.19 + 0.1)) / 2)


def test_annotated_moves_carry_their_accuracy(xiangqi_cli):
    import io

    import xiangqi.pgn
    from xiangqi.engine import Limit, SimpleEngine, annotate

    text = '[Event "t"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9 1-0\n'
    game = next(xiangqi.pgn.read_games(io.StringIO(text)))
    with SimpleEngine.popen_uci([xiangqi_cli, "uci"]) as engine:
        reviews = annotate(game, engine, Limit(depth=3))
    for review in reviews:
        assert review.accuracy == xiangqi.move_accuracy(review.drop)
    for side, tag in ((xiangqi.RED, "RedAccuracy"), (xiangqi.BLACK, "BlackAccuracy")):
        expected = xiangqi.game_accuracy([r.accuracy for r in reviews if r.mover == side])
        assert abs(float(game.headers[tag]) - expected) <= 0.05 + 1e-9
    # a9b9 hangs the horse: a blunder, and far from a perfect move.
    assert reviews[-1].judgement == "blunder" and reviews[-1].accuracy < 80
