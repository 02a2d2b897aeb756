"""``--out FILE`` for a bench script that writes one file: checked before any work, so that a folder that does not
exist is one usage line (exit 2), not a traceback after the work. Shared by ``readout_wall_table.py`` and
``readout_wall_pool.py``."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["out_file"]


def out_file(text: str) -> Path:
    """``argparse`` type of ``--out``: the path, if its folder exists; else an ArgumentTypeError saying so."""
    path = Path(text)
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {str(path.parent)!r} does not exist; got {text!r}: create the "
                                         "folder first, or give a path in an existing one")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder; give a file name such as walls.csv")
    return path
