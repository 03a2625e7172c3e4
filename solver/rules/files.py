"""Rules files: JSON or TOML naming a preset plus options (house rules), or defining a preset of
one's own ("name" with its words, rules/definitions.py), read into (preset, options)."""
import json
from pathlib import Path

from ..inputs import FileRefused, read_regular
from .base import RulesError

MAX_BYTES = 64 * 1024  # a rules file is a few lines; anything larger is not one


def read_rules_file(path):
    """Read a JSON or TOML rules file {"preset": NAME, option: value, ...} -> (NAME, options);
    a file that defines a preset ("name", "description", ...) keeps those fields in options.
    RulesError naming the file and what is wrong with it."""
    path = Path(path)
    try:  # a regular file only (a FIFO or /dev/zero is never read), and no more than it may be
        raw = read_regular(path, MAX_BYTES, "rules file")
    except FileRefused as exc:
        raise RulesError(str(exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError(f"rules file {path} is not UTF-8 text (byte {exc.start + 1} of the "
                         "file)") from None
    data = parse_rules_text(text, path)
    if "preset" not in data and "name" not in data:
        raise RulesError(f"rules file {path} must name a preset, e.g. {{\"preset\": \"kniffel\"}}")
    data = dict(data)
    return data.pop("preset", None), data


def parse_rules_text(text, path):
    """The object of a rules file's text, JSON or TOML by the file's suffix (RulesError
    naming `path` when it is not one)."""
    path = Path(path)
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
        kind = path.suffix.lstrip('.').upper() or 'JSON'
        raise RulesError(f"rules file {path} is not valid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise RulesError(f"rules file {path} must hold an object of its fields")
    return data
