"""The study's defaults are written once (`Study`) and read by every entry point."""

from __future__ import annotations

import inspect

import pytest

from harness.cli import main
from harness.commands.run import DEFAULTS as COMMAND_LINE
from harness.runner import DEFAULTS, Study, make_study


def test_the_command_line_and_make_study_read_the_studys_defaults():
    for key, value in COMMAND_LINE.items():
        assert value == DEFAULTS[key] == getattr(Study, key), key
    signature = inspect.signature(make_study)
    for name, parameter in signature.parameters.items():
        if name == "seed":  # None: a seed is drawn and stored with the run
            continue
        if name in DEFAULTS and parameter.default is not inspect.Parameter.empty:
            assert parameter.default == DEFAULTS[name], name


def test_help_shows_the_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {DEFAULTS['timeout']:g})" in text
    assert f"(default {DEFAULTS['memory']})" in text
