"""What every rule family shares: the error for unusable rules, and the name of a rule set."""
import hashlib
import json


class RulesError(ValueError):
    """A preset name, rules file or option that cannot be used."""


# The largest points or count option: far beyond any real rule, and far below what the kernels'
# int64 sums can hold (a larger one would overflow there and solve to garbage).
MAX_OPTION = 10_000


def check_whole_number(key, value):
    """RulesError unless `value` is a whole number 0-MAX_OPTION (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_OPTION:
        raise RulesError(f"{key} must be a whole number >= 0 and at most {MAX_OPTION}, "
                         f"got {value!r}")


def preset_key(rules, presets):
    """The preset name of `rules` if it is that preset unchanged, else the name plus a hash of
    its options (tables of different rules never share a name)."""
    if rules == presets[rules.preset]:
        return rules.preset
    blob = json.dumps(rules.as_dict(), sort_keys=True).encode()
    return f"{rules.preset}-{hashlib.sha256(blob).hexdigest()[:12]}"
