"""Rules as data: the scorecard games' Rules and presets (each preset's one definition in
definitions.py), score tables, five-of-a-kind scoring, box names and rules files.  (The Dice
Duel's rules are in duel/; presets.py names both.)"""
from .base import RulesError, preset_key
from .files import read_rules_file
from .scorecard import (
                        BOX_ALIASES,
                        BOX_SETS,
                        BOXES_13,
                        BOXES_YATZY,
                        PRESETS,
                        SCORECARD_OPTIONS,
                        UPPER,
                        Rules,
                        box_key,
                        get_rules,
                        option_applies,
)

__all__ = ["BOX_ALIASES", "BOX_SETS", "BOXES_13", "BOXES_YATZY", "PRESETS", "SCORECARD_OPTIONS",
           "UPPER", "Rules", "RulesError", "box_key", "get_rules", "option_applies", "preset_key",
           "read_rules_file"]
