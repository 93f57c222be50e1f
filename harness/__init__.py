"""sudoku-bench harness: run solvers over corpora, cross-check, store and report."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("sudoku-bench")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
