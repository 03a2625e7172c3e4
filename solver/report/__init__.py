"""Reports built from the capabilities: the printable strategy tables (tables.py: Markdown, CSV,
JSON, the whole value table) and the print-ready A4 pages (pages.py: HTML, PDF by Chromium)."""
