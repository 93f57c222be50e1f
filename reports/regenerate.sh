#!/usr/bin/env sh
# Regenerate the example study in this folder from reports/study.toml: the built-in
# solvers beside SAT binaries (minisat, cadical through DIMACS), MiniZinc with Gecode,
# two CPMpy backends and a small C program (the external-solver test fixture, built
# here), on three built-in corpora, one worker, 2 s per solve; then the reports.
# Run from the repository root:  sh reports/regenerate.sh   (about ten minutes)
set -eu
db="reports/study.sqlite"   # where study.toml puts it; not committed (*.sqlite is ignored)
rm -f "$db" "$db-wal" "$db-shm"
mkdir -p reports/bin
cc -O2 -o reports/bin/csolver tests/external/solver.c
sudoku-bench run reports/study.toml
sudoku-bench report --db "$db" --rate --format md --out reports/report.md
sudoku-bench report --db "$db" --rate --format html --out reports/report.html
sudoku-bench report --db "$db" --format latex --out reports/tables.tex
