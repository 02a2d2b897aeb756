"""The catalogue of encoded theorems: one module per paper.

Each module defines ``BOUNDS``, a list of :class:`theorycheck.catalogue.Bound`.
Look entries up with :func:`theorycheck.catalogue.get` or list them with
:func:`theorycheck.catalogue.all_bounds`.
"""
