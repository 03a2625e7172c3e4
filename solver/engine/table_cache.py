"""The store's tables of house rules as a cache: `kniffel serve` solves a table (8.4 MB for a
scorecard) for every new set of options a game asks for, so after a solve it keeps the
HOUSE_RULES_KEPT used last (mark_used notes a use) and deletes the others, with every file
of their rules; `kniffel tables --prune` does the same by hand.  The presets' tables are never
deleted: they are no cache entries but what the presets need."""
import glob
import os

from .store import VALUE_TABLE, TableError, read_header, table_dir, table_paths

HOUSE_RULES_KEPT = 8  # tables of house rules `kniffel serve` keeps (8.4 MB each for a scorecard)


def house_rule_tables(directory=None):
    """[(last use, key, [paths])] of the store's expected-score tables for house rules (a
    header whose rules key is not its preset's name), least recently used first, each with
    every file of its key (its target table, opponents' distributions, ...).  A preset's
    table is never listed: it is no cache entry but what the presets need."""
    directory = table_dir(directory)
    try:
        sidecars = sorted(directory.glob("*.json"))
    except OSError:
        return []
    found = []
    for sidecar in sidecars:
        key = sidecar.name[:-len(".json")]
        if "." in key:  # NAME.KIND.json: another artifact's header, listed with its values
            continue
        try:
            header = read_header(sidecar)
            used = sidecar.stat().st_mtime
        except (TableError, OSError):
            continue
        rules = header.get("rules")
        if header.get("kind") != VALUE_TABLE.kind or header.get("rules_key") != key \
                or not isinstance(rules, dict) or rules.get("preset") in (key, None):
            continue
        paths = sorted(p for p in directory.glob(glob.escape(key) + ".*")
                       if p.name[len(key) + 1:].count(".") <= 1)  # NAME.x or NAME.KIND.x
        found.append((used, key, paths))
    return sorted(found)


def prune_house_rules(directory=None, keep=HOUSE_RULES_KEPT):
    """Delete the tables of house rules but the `keep` used last (house_rule_tables): the
    [(key, [paths deleted])] removed; a file that cannot be deleted is left (and not named)."""
    removed = []
    entries = house_rule_tables(directory)
    for used, key, paths in entries[:max(0, len(entries) - keep)]:
        gone = []
        for path in paths:
            try:
                path.unlink()
                gone.append(path)
            except OSError:
                pass
        removed.append((key, gone))
    return removed


def mark_used(rules, directory=None):
    """Note that the table of `rules` was just used (its header's modification time: what
    house_rule_tables orders by), for house rules only; nothing in a read-only store."""
    if getattr(rules, "preset", None) == rules.key:
        return
    try:
        os.utime(table_paths(rules, directory)[1])
    except OSError:
        pass
