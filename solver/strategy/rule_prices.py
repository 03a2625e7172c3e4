"""Each printed rule of thumb's own exact price: what the expected final score of the whole list
loses when that one rule is dropped (the others kept, in their order), by exact policy evaluation
(policy_eval.evaluate) of the list and of each list without one rule.

A preset's list is derived and priced by scripts/rules_of_thumb.py --derive (derive.py) and
stored with its prices, its curve and its baselines in solver/data/rule_prices/PRESET.json, with
the command that made it; the pages read it there.  A stored file is used only for the rules it
was computed for."""
import json
from functools import lru_cache
from pathlib import Path

from .thumb import RuleList

FOLDER = Path(__file__).resolve().parent.parent / "data" / "rule_prices"
DEFINITION = "drop_one"  # price = score of the whole list - score of the list without the rule


def printed_rule_list(rules):
    """The rule list the strategy pages print for `rules`: the stored record's (derived and
    priced for exactly these rules) where there is one, else the hand-written heuristic."""
    from .heuristic import heuristic
    record = _load(rules.key)
    if record is None or record["rules_dict"] != _plain(rules.as_dict()):
        return heuristic(rules)
    return RuleList.from_dict(record["rule_list"])


def without(rule_list, kind, index):
    """`rule_list` with its keep rule (kind "keeps") or box rule ("boxes") number `index` (from
    0) dropped, the others in their order."""
    keeps, boxes = list(rule_list.keeps), list(rule_list.boxes)
    (keeps if kind == "keeps" else boxes).pop(index)
    return RuleList(f"{rule_list.name} without {kind}[{index}]", tuple(keeps), tuple(boxes))


def price_record(table, rule_list, evaluate, progress=None):
    """The stored record of `table`'s rules: the whole list's exact score and, for each rule, the
    exact score without it and its price.  evaluate(table, rule_list) -> score; progress() is
    called after each evaluation."""
    whole = evaluate(table, rule_list)
    record = {"preset": table.rules.key, "definition": DEFINITION,
              "rules_dict": _plain(table.rules.as_dict()), "rule_list": rule_list.as_dict(),
              "score": whole, "optimal": table.expected_score}
    for kind in ("keeps", "boxes"):
        rows = []
        for index in range(len(getattr(rule_list, kind))):
            score = evaluate(table, without(rule_list, kind, index))
            rows.append({"without": score, "price": whole - score})
            if progress:
                progress()
        record[kind] = rows
    return record


def path_of(name):
    """The stored file of preset `name`."""
    return FOLDER / f"{name}.json"


@lru_cache(maxsize=16)
def _load(name):
    path = path_of(name)
    return json.loads(path.read_text()) if path.is_file() else None


def stored_prices(rules, rule_list):
    """The stored record for `rules` and `rule_list` (a dict: score, keeps and boxes as
    [{"without", "price"}], definition, command), or None when there is none for exactly these
    rules and this list."""
    record = _load(rules.key)
    if (record is None or record["rules_dict"] != _plain(rules.as_dict())
            or RuleList.from_dict(record["rule_list"]) != rule_list):
        return None
    return record


def _plain(d):
    return json.loads(json.dumps(d))
