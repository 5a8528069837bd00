from bot.engine import Board, Mark, Outcome, analyze


def test_the_documented_example_matches() -> None:
    result = analyze(Board.parse("X.O......"))
    assert result.value is Outcome.WIN
    assert result.plies == 5
    assert result.best == (3, 6, 8)
    assert Board.parse("X.O......").turn is Mark.X
