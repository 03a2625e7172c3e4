"""The rules of thumb chosen for each preset by scripts/rules_of_thumb.py (derive.py's forward
selection, minutes of exact evaluations), stored with their exact prices in derived.json so that
`kniffel tables` prints them at once; tests check the stored numbers against a fresh evaluation."""
import json
from functools import lru_cache
from pathlib import Path

from .thumb import RuleList

PATH = Path(__file__).with_name("derived.json")


@lru_cache(maxsize=1)
def _load():
    return json.loads(PATH.read_text()) if PATH.is_file() else {}


def derived(rules):
    """The stored entry for `rules` (a dict: rules, curve, prices), or None.  Only for the exact
    rules it was derived under (a rules file with other numbers gets None)."""
    entry = _load().get(rules.key)
    if entry is None or entry["rules_dict"] != _plain(rules.as_dict()):
        return None
    return dict(entry, rule_list=RuleList.from_dict(entry["rules"]))


def _plain(d):
    return json.loads(json.dumps(d))
