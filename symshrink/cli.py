"""The `symshrink` command: parses options and calls the library, nothing more."""

from __future__ import annotations

import json
import logging
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from symshrink import summary
from symshrink.errors import ReproError
from symshrink.graph import SymGraph
from symshrink.repro.parse import parse_file

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Minimize PyTorch symbolic-shape repro scripts.",
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Minimize PyTorch symbolic-shape repro scripts."""


ReproPath = Annotated[Path, typer.Argument(help="an after-aot repro script", show_default=False)]


class Format(StrEnum):
    text = "text"
    json = "json"


class GraphFormat(StrEnum):
    dot = "dot"
    mermaid = "mermaid"


@app.command()
def inspect(
    repro: ReproPath,
    format: Annotated[Format, typer.Option("--format", help="output format")] = Format.text,
    graph: Annotated[
        GraphFormat | None, typer.Option("--graph", help="print the dependency graph instead")
    ] = None,
) -> None:
    """Summarize a repro: free symbols, derived SymInts, tensor inputs, width."""
    model = parse_file(repro)
    if graph is not None:
        g = SymGraph(model)
        typer.echo(g.to_dot() if graph is GraphFormat.dot else g.to_mermaid(), nl=False)
    elif format is Format.json:
        typer.echo(json.dumps(summary.summary(model), indent=2))
    else:
        typer.echo(summary.text(model), nl=False)


def main() -> None:
    """Entry point: bad input is one line on stderr and exit code 2, never a traceback."""
    logging.basicConfig(level=logging.WARNING, format="symshrink: warning: %(message)s")
    try:
        app()
    except ReproError as e:
        typer.echo(f"symshrink: error: {e}", err=True)
        sys.exit(2)
