"""Reports built from the capabilities: the printable strategy tables (tables.py: Markdown in the
pad's language, CSV and JSON as data), the whole value table as files (values.py) and the
print-ready A4 pages (pages.py: HTML, PDF by Chromium)."""
