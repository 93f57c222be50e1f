"""sudoku-bench corpora: the puzzles — reading, writing, generating, built-in and public sets.

The second layer: it builds on `solvers` (for `Grid`, the verifier and the
oracle) and never imports `harness`.  One module per job:

- `corpora.corpus`: `Puzzle`, `Corpus`, `read_puzzles`, `open_corpus` (built-in names,
  downloaded collections, files);
- `corpora.formats`: the readers (lines, pictures, CSV, SDK/SDM, letters, integers, gzip);
- `corpora.writers`: the writers (line, pretty, csv, json, numbers);
- `corpora.generate`: the seeded generator (`generate`, `make`, `Spec`), with
  `corpora.fill` (random solutions), `corpora.symmetry`, `corpora.broken`
  (invalid, unsolvable and multiple-solution puzzles) and `corpora.rating`;
- `corpora.builtin`: the recipes of the built-in sets in ``corpora/data/`` and their index;
- `corpora.fetch`: public collections, downloaded on request and checked by SHA-256;
- `corpora.truth`: how many solutions every puzzle of a corpus has, streamed.

>>> import corpora
>>> corpus = corpora.open_corpus("gen4")
>>> puzzle = next(corpus.puzzles())
>>> puzzle.grid.size
4
"""

from corpora.corpus import (
    Corpus,
    Puzzle,
    ReadReport,
    builtin_names,
    open_corpus,
    puzzles_from_argument,
    read_puzzles,
)
from corpora.writers import FORMATS, Row, write_rows

__all__ = [
    "FORMATS",
    "Corpus",
    "Puzzle",
    "ReadReport",
    "Row",
    "builtin_names",
    "open_corpus",
    "puzzles_from_argument",
    "read_puzzles",
    "write_rows",
]
