"""Well-known public puzzle collections, downloaded on request and verified.

`CATALOGUE` names each collection with its address, its SHA-256 and its size.
`fetch(name)` downloads into a temporary file in the user cache directory
(``platformdirs``; ``SUDOKU_BENCH_CACHE`` overrides it), checks the size and
the SHA-256, and only then moves the file into place: a wrong or truncated
download is refused and nothing is stored.  Nothing else in sudoku-bench
needs the network.

The pinned checksums were computed from the project's reference copies of
these files; an entry whose ``sha256`` is None has no pin yet, and is fetched
only with a checksum the user supplies after checking the file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1 << 16
TIMEOUT = 30.0  # seconds without data before a download is abandoned


class FetchError(ValueError):
    """A download that failed or did not match the catalogue; nothing was stored."""


@dataclass(frozen=True)
class Collection:
    """One downloadable collection: where it lives and what its bytes must hash to."""

    name: str
    url: str
    sha256: str | None
    bytes: int | None
    puzzles: int
    size: int  # the side of its grids
    description: str
    suffix: str = ".txt"


CATALOGUE: dict[str, Collection] = {
    c.name: c
    for c in (
        Collection(
            "top95",
            "https://norvig.com/top95.txt",
            "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
            7790,
            95,
            9,
            "95 hard puzzles Peter Norvig used to test his solver (from magictour's top95)",
        ),
        Collection(
            "hardest",
            "https://norvig.com/hardest.txt",
            "ade6e1cc141a3898a8f7a9492671ad467df6e62713a83d62841959919af4232f",
            984,
            12,
            9,
            "puzzles Peter Norvig collected as claimed 'hardest' ones",
        ),
        Collection(
            "top1465",
            "http://magictour.free.fr/top1465",
            "21d82f285082dc0db051f407cf23103af76bf077b368b04bd9e619f2bf6d2c1b",
            120130,
            1465,
            9,
            "magictour's top 1465: hard puzzles rated by several solvers (2005)",
        ),
        Collection(
            "euler96",
            "https://projecteuler.net/project/resources/p096_sudoku.txt",
            None,
            None,
            50,
            9,
            "Project Euler problem 96: 50 puzzles as grid pictures with 'Grid NN' titles",
        ),
    )
}


def cache_dir() -> Path:
    """Where downloaded collections are kept (``SUDOKU_BENCH_CACHE`` overrides)."""
    override = os.environ.get("SUDOKU_BENCH_CACHE")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("sudoku-bench")) / "corpora"


def collection(name: str) -> Collection:
    """The catalogue entry for a name; FetchError lists the valid names."""
    try:
        return CATALOGUE[name]
    except KeyError:
        raise FetchError(
            f"no collection {name!r} in the catalogue: expected one of {', '.join(CATALOGUE)}"
        ) from None


def stored_path(name: str) -> Path:
    """Where a collection is (or would be) stored."""
    entry = collection(name)
    return cache_dir() / f"{entry.name}{entry.suffix}"


def cached(name: str) -> Path:
    """The stored file of a fetched collection; FetchError says how to fetch it."""
    path = stored_path(name)
    if not path.is_file():
        raise FetchError(
            f"collection {name!r} is not downloaded: run 'sudoku-bench corpora fetch {name}'"
        )
    return path


def fetch(name: str, *, sha256: str | None = None, force: bool = False) -> Path:
    """Download a collection, verify it, store it; return its path.

    `sha256` overrides (or supplies) the catalogue's checksum.  An existing
    file that still verifies is kept unless `force`.
    """
    entry = collection(name)
    expected = (sha256 or entry.sha256 or "").lower()
    if not expected:
        raise FetchError(
            f"the catalogue pins no checksum for {name!r} yet: check the file at {entry.url} "
            "and pass its SHA-256 with --sha256"
        )
    if len(expected) != 64 or any(ch not in "0123456789abcdef" for ch in expected):
        raise FetchError(f"not a SHA-256 (64 hex digits): {expected!r}")
    target = stored_path(name)
    if target.is_file() and not force and file_sha256(target) == expected:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    limit = entry.bytes if sha256 is None and entry.bytes else 1 << 30
    handle, temp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=target.parent)
    temp = Path(temp_name)
    try:
        with os.fdopen(handle, "wb") as out:
            digest, size = _download(entry.url, out, limit)
        if size > limit:
            raise FetchError(f"{entry.url}: larger than the catalogue's {limit} bytes; refused")
        if digest != expected:
            raise FetchError(
                f"{entry.url}: SHA-256 {digest} does not match the expected {expected}; "
                "refused, nothing stored"
            )
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    return target


def _download(url: str, out, limit: int) -> tuple[str, int]:
    """Stream `url` into `out`, hashing as it goes; stops reading past `limit`."""
    digest = hashlib.sha256()
    size = 0
    request = urllib.request.Request(url, headers={"User-Agent": "sudoku-bench"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            while size <= limit:
                chunk = response.read(CHUNK)
                if not chunk:
                    break
                digest.update(chunk)
                out.write(chunk)
                size += len(chunk)
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}; nothing stored") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise FetchError(f"{url}: download failed ({reason}); nothing stored") from None
    return digest.hexdigest(), size


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()
