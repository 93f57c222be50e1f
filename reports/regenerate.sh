#!/usr/bin/env sh
# Regenerate the example study in this folder: every registered solver on three
# built-in corpora (easy and extreme 9x9, and 16x16), 2 s per solve, one worker
# so the timings are not perturbed by a parallel solve, then the reports.
# Run from the repository root:  sh reports/regenerate.sh   (a few minutes)
set -eu
db="${DB:-reports/study.sqlite}"   # not committed (*.sqlite is ignored)
rm -f "$db" "$db-wal" "$db-shm"
sudoku-bench run --corpus gen9-easy --corpus gen9-extreme --corpus gen16 \
    --timeout 2 --jobs 1 --db "$db"
pairs="--pair dlx fast --pair dlx cpsat --pair cpsat sat --pair mrv positions \
    --pair odometer magictouch --pair human assume"
# shellcheck disable=SC2086
sudoku-bench report --db "$db" --rate --format md --out reports/report.md $pairs
# shellcheck disable=SC2086
sudoku-bench report --db "$db" --rate --format html --out reports/report.html $pairs
sudoku-bench report --db "$db" --format latex --out reports/tables.tex
