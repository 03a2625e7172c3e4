"""What every rule family shares: the error for unusable rules, and the name of a rule set."""
import hashlib
import json


class RulesError(ValueError):
    """A preset name, rules file or option that cannot be used."""


def preset_key(rules, presets):
    """The preset name of `rules` if it is that preset unchanged, else the name plus a hash of
    its options (tables of different rules never share a name)."""
    if rules == presets[rules.preset]:
        return rules.preset
    blob = json.dumps(rules.as_dict(), sort_keys=True).encode()
    return f"{rules.preset}-{hashlib.sha256(blob).hexdigest()[:12]}"
