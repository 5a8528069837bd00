"""A Discord tic-tac-toe bot with a perfect minimax engine, playable in the terminal too."""
