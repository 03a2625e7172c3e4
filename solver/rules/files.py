"""Rules files: JSON or TOML naming a preset plus options, read into (preset, options)."""
import json
from pathlib import Path

from .base import RulesError


def read_rules_file(path):
    """Read a JSON or TOML rules file {"preset": NAME, option: value, ...} -> (NAME, options)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulesError(f"cannot read rules file {path}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError(f"rules file {path} is not UTF-8 text (byte {exc.start + 1} of the file)") from None
    try:
        if path.suffix.lower() == ".toml":
            try:
                import tomllib
            except ModuleNotFoundError:  # Python 3.10
                import tomli as tomllib
            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except RecursionError:  # both parsers recurse once per bracket
        raise RulesError(f"rules file {path} is nested too deeply") from None
    except ValueError as exc:
        raise RulesError(f"rules file {path} is not valid {path.suffix.lstrip('.').upper() or 'JSON'}: {exc}") from None
    if not isinstance(data, dict) or "preset" not in data:
        raise RulesError(f"rules file {path} must name a preset, e.g. {{\"preset\": \"kniffel\"}}")
    data = dict(data)
    return data.pop("preset"), data
