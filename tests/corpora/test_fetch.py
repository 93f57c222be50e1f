"""Fetching public collections: verified downloads from a local server only."""

from __future__ import annotations

import http.server
import threading
from functools import partial

import pytest

from corpora import fetch
from corpora.corpus import open_corpus
from harness.cli import main

PUZZLES = (  # corpora/data/gen9-hard.txt lines 4 and 5 (project-made)
    b"58.........71.4........645...6.3...8.7.5....11..6...4..4....39...3.7.1...9.....7.\n"
    b"....2.3.....78..5.56...4....1.5..........37.6..9.......4..7...8....42.3.736...4..\n"
)
# The SHA-256 of PUZZLES, pinned like a catalogue entry.
SHA = "9f57c3661da7e1e71eb20e52787a7bfc1b2444b7f3910c7dc85fdc098e1eb592"


@pytest.fixture
def server(tmp_path):
    """An HTTP server on 127.0.0.1 serving a directory with one puzzle file."""
    root = tmp_path / "www"
    root.mkdir()
    (root / "two.txt").write_bytes(PUZZLES)
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=partial(httpd.serve_forever, 0.05), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def catalogue(monkeypatch, tmp_path, server):
    """A catalogue pointing at the local server, and an empty cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("SUDOKU_BENCH_CACHE", str(cache))
    entries = {
        "good": fetch.Collection("good", f"{server}/two.txt", SHA, len(PUZZLES), 2, 9, "ok"),
        "tampered": fetch.Collection(
            "tampered", f"{server}/two.txt", "0" * 64, len(PUZZLES), 2, 9, "bad pin"
        ),
        "missing": fetch.Collection("missing", f"{server}/nope.txt", SHA, None, 2, 9, "404"),
        "unpinned": fetch.Collection("unpinned", f"{server}/two.txt", None, None, 2, 9, "?"),
        "short": fetch.Collection("short", f"{server}/two.txt", SHA, 10, 2, 9, "too big"),
    }
    monkeypatch.setattr(fetch, "CATALOGUE", entries)
    return cache


def test_verified_download_is_stored_and_opens_as_a_corpus(catalogue):
    path = fetch.fetch("good")
    assert path == catalogue / "good.txt"
    assert path.read_bytes() == PUZZLES
    corpus = open_corpus("good")
    assert [p.id for p in corpus.puzzles()] == ["good.txt:1", "good.txt:2"]
    assert fetch.fetch("good") == path  # already there and still verifies


def test_wrong_checksum_is_refused_and_nothing_stored(catalogue):
    with pytest.raises(fetch.FetchError, match="does not match"):
        fetch.fetch("tampered")
    assert not catalogue.exists() or not any(catalogue.iterdir())


def test_oversized_download_is_refused(catalogue):
    with pytest.raises(fetch.FetchError, match="larger than"):
        fetch.fetch("short")
    assert not any(catalogue.iterdir())


def test_http_error_is_reported_and_nothing_stored(catalogue):
    with pytest.raises(fetch.FetchError, match="HTTP 404"):
        fetch.fetch("missing")
    assert not any(catalogue.iterdir())


def test_unpinned_entry_needs_a_checksum_from_the_user(catalogue):
    with pytest.raises(fetch.FetchError, match="--sha256"):
        fetch.fetch("unpinned")
    assert fetch.fetch("unpinned", sha256=SHA.upper()).read_bytes() == PUZZLES
    with pytest.raises(fetch.FetchError, match="not a SHA-256"):
        fetch.fetch("unpinned", sha256="abc", force=True)


def test_a_corrupted_cache_file_is_downloaded_again(catalogue):
    path = fetch.fetch("good")
    path.write_bytes(b"garbage")
    assert fetch.fetch("good").read_bytes() == PUZZLES


def test_unknown_names_list_the_catalogue(catalogue):
    with pytest.raises(fetch.FetchError, match="expected one of good, tampered"):
        fetch.fetch("nothing")
    with pytest.raises(fetch.FetchError, match="not downloaded"):
        fetch.cached("good")


def test_fetch_command(catalogue, capsys):
    assert main(["corpora", "fetch", "good"]) == 0
    assert "verified and stored" in capsys.readouterr().out
    assert main(["corpora", "fetch", "tampered"]) == 2
    assert "does not match" in capsys.readouterr().err


def test_the_real_catalogue_is_well_formed():
    for name, entry in fetch.CATALOGUE.items():
        assert entry.name == name
        assert entry.url.startswith(("https://", "http://"))
        assert entry.sha256 is None or len(entry.sha256) == 64
        assert entry.puzzles > 0
