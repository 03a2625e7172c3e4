"""The package's version: written in every saved table, record and report, and read by `kniffel
--version`.  A module of its own, so that no layer needs the package root to read it."""
__version__ = "0.1.0"
