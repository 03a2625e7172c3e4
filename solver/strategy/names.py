"""Box names as printed on a page: German for the Kniffel rule sets, English for Yahtzee and
Yatzy.  (rules/scorecard.py's BOX_ALIASES reads names typed by a user; these are for display.)"""

GERMAN = {"ones": "Einser", "twos": "Zweier", "threes": "Dreier", "fours": "Vierer",
          "fives": "Fünfer", "sixes": "Sechser", "three_kind": "Dreierpasch",
          "four_kind": "Viererpasch", "full_house": "Full House", "small_straight": "Kleine Straße",
          "large_straight": "Große Straße", "kniffel": "Kniffel", "chance": "Chance"}
ENGLISH = {"ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours", "fives": "Fives",
           "sixes": "Sixes", "three_kind": "Three of a Kind", "four_kind": "Four of a Kind",
           "full_house": "Full House", "small_straight": "Small Straight",
           "large_straight": "Large Straight", "kniffel": "Yahtzee", "chance": "Chance",
           "one_pair": "One Pair", "two_pairs": "Two Pairs", "yatzy": "Yatzy"}


def language(rules):
    """"de" for the Kniffel rule sets (13 boxes, not Yahtzee), else "en"."""
    return "de" if rules.box_set == "13" and not rules.preset.startswith("yahtzee") else "en"


def box_name(box, rules, lang=None):
    """The printed name of `box` under `rules`, in `lang` (default: the rules' language)."""
    if (lang or language(rules)) == "de":
        return GERMAN.get(box, box)
    if box == "kniffel" and not rules.preset.startswith("yahtzee"):
        return "Kniffel"
    return ENGLISH.get(box, box)
