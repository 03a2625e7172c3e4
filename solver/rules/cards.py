"""Parsing a scorecard a person or a program typed, against the rules (box names, possible
points)."""
from .scorecard import box_key


def parse_card(spec, rules):
    """'ones=3,fives=15,kniffel=50' (or a dict) -> {box_key: points}, validated."""
    if isinstance(spec, dict):
        items = list(spec.items())
    else:
        items = []
        for part in (spec or "").replace(";", ",").split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise ValueError(f"card entry {part.strip()!r} must look like box=points")
            name, value = part.split("=", 1)
            items.append((name, value))
    card = {}
    for name, value in items:
        box = box_key(str(name), rules)
        if box in card:
            raise ValueError(f"box {box!r} is given twice")
        if isinstance(value, int) and not isinstance(value, bool):
            points = value
        else:  # text of ASCII digits only: int() would read "٣" as 3 and "1_0" as 10
            text = str(value).strip()
            digits = text[1:] if text[:1] in "+-" else text
            ok = not isinstance(value, bool) and digits.isascii() and digits.isdigit()
            points = int(text) if ok else None
        if points is None:
            raise ValueError(f"points for {box!r} must be a whole number, got {value!r}")
        if points not in rules.possible_points(box):
            raise ValueError(f"{box}={points} is impossible under {rules.preset} rules")
        card[box] = points
    return card
