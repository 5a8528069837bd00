"""The baseline: a naive minimax (no pruning, no table, list board).

Kept deliberately close to the article's code; the only change is that the player
to optimise for is a parameter, so it can answer for X on the empty board too.
"""

from __future__ import annotations

WIN_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

nodes = 0
"""Positions visited since the last reset (for nodes per second)."""


def check_winner(board: list[str], player: str) -> bool:
    return any(board[a] == player and board[b] == player and board[c] == player for a, b, c in WIN_LINES)


def is_full(board: list[str]) -> bool:
    return " " not in board


def minimax(board: list[str], is_maximizing: bool, ai: str, human: str) -> int:
    global nodes
    nodes += 1
    if check_winner(board, ai):
        return 1
    if check_winner(board, human):
        return -1
    if is_full(board):
        return 0
    if is_maximizing:
        best_score = -1000
        for i in range(9):
            if board[i] == " ":
                board[i] = ai
                score = minimax(board, False, ai, human)
                board[i] = " "
                best_score = max(score, best_score)
        return best_score
    best_score = 1000
    for i in range(9):
        if board[i] == " ":
            board[i] = human
            score = minimax(board, True, ai, human)
            board[i] = " "
            best_score = min(score, best_score)
    return best_score


def get_best_move(board: list[str], ai: str) -> int:
    human = "O" if ai == "X" else "X"
    best_score = -1000
    move = -1
    for i in range(9):
        if board[i] == " ":
            board[i] = ai
            score = minimax(board, False, ai, human)
            board[i] = " "
            if score > best_score:
                best_score = score
                move = i
    return move


def from_text(text: str) -> list[str]:
    """A 9-cell board text (``X``, ``O``, ``.``) as the article's list of ``"X"``/``"O"``/``" "``."""
    return [" " if ch == "." else ch for ch in text.upper()]
