"""sudoku-bench harness: run solvers over corpora, cross-check, store and report."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("sudoku-bench")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = ["__version__", "load_results", "load_runs"]


def __getattr__(name: str) -> object:
    """`load_results` and `load_runs` on first use, so ``import harness`` never loads pandas."""
    if name in ("load_results", "load_runs"):
        from harness import data

        return getattr(data, name)
    raise AttributeError(f"module 'harness' has no attribute {name!r}")
