"""One module per `sudoku-bench` sub-command."""
