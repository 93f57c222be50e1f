#!/usr/bin/env sh
# Regenerate the example studies in this folder.
#
# The classic study (reports/study.toml): the built-in solvers beside SAT binaries (minisat,
# cadical through DIMACS), MiniZinc with Gecode, two CPMpy backends and a small C program (the
# external-solver test fixture, built here), on three built-in corpora, one worker, 2 s per
# solve; then the reports (about ten minutes).
#
# The variant study (reports/variants.toml): puzzles with constraints (mixed9, variants6,
# jigsaw16), every built-in method and the CP and SAT backends, one worker, 2 s per solve; then
# its reports in reports/variants/ (about fifteen minutes).
#
# Run from the repository root:  sh reports/regenerate.sh [classic|variants]   (default: both)
set -eu
what="${1:-both}"
case "$what" in
  classic|variants|both) ;;
  *) echo "usage: sh reports/regenerate.sh [classic|variants]" >&2; exit 2 ;;
esac

if [ "$what" != variants ]; then
  db="reports/study.sqlite"   # where study.toml puts it; not committed (*.sqlite is ignored)
  rm -f "$db" "$db-wal" "$db-shm"
  mkdir -p reports/bin
  cc -O2 -o reports/bin/csolver tests/external/solver.c
  sudoku-bench run reports/study.toml
  sudoku-bench report --db "$db" --rate --format md --out reports/report.md
  sudoku-bench report --db "$db" --rate --format html --out reports/report.html
  sudoku-bench report --db "$db" --format latex --out reports/tables.tex
fi

if [ "$what" != classic ]; then
  db="reports/variants.sqlite"   # where variants.toml puts it; not committed
  rm -f "$db" "$db-wal" "$db-shm"
  rm -rf reports/variants
  mkdir -p reports/variants
  sudoku-bench run reports/variants.toml
  sudoku-bench report --db "$db" --format md --out reports/variants/report.md
  sudoku-bench report --db "$db" --format html --out reports/variants/report.html
fi
