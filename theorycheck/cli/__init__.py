"""Command-line interface: ``theorycheck <command>`` (see :mod:`theorycheck.cli.main`)."""
