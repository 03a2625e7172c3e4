"""The printed pages as PDF: headless Chromium prints the HTML (A4 from the page's CSS)."""


def chromium():
    """The Chromium (or Chrome) executable that prints the PDF, or None."""
    import shutil
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def html_to_pdf(html_path, pdf_path):
    """Print an HTML file to PDF with headless Chromium (A4 from the page's CSS)."""
    import subprocess
    import tempfile
    from pathlib import Path
    browser = chromium()
    if browser is None:
        raise RuntimeError("PDF needs Chromium (Debian: apt-get install chromium); "
                           "--format html writes the same pages to print from a browser")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--no-pdf-header-footer", f"--user-data-dir={profile}",
                        f"--print-to-pdf={pdf_path}", Path(html_path).resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)
