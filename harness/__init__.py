"""sudoku-bench harness: run solvers over corpora, cross-check, store and report."""
