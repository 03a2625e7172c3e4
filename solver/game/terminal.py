"""The terminal side of `kniffel play`: show the card and dice, read the player's moves, coach.

The game itself (moves, points, the record) is solver/game.py; this module only talks.  Every
answer a player types is checked by the game; a mistake is explained and asked again, never the
end of the game.  The record is saved after every decision and when the game stops (q, Ctrl-C,
end of input), so nothing is lost.
"""
import sys

import click

from ..advice.position import advise, cost_text
from .analysis import goal_ranking
from . import session as sessions
from .analysis import OPTIMAL_TOLERANCE, analyze, choice_value, describe_choice, option_as_decision
from .card import GameError, is_sub_multiset, parse_box, parse_faces
from .record import save_record

COACH_TOP = 5  # options --coach shows before each decision; `?` shows them all

KEEP_HELP = ("type the dice to keep (e.g. 335), Enter = reroll all, a = keep all and score, "
             "a box name to score now, ? = coach, u = undo, q = save and quit")
BOX_HELP = "type a box (name, German name or number), ? = coach, u = undo, q = save and quit"
JOKER_HELP = ", j 5 6 = joker: turn a 5 into a 6, u = undo jokers (then the last move)"


class Quit(Exception):
    """The player typed q."""


class InputClosed(EOFError):
    """Standard input is closed (`kniffel play <&-`): no move can ever be read."""


class Undo(Exception):
    """The player typed u: take back the roll just typed (real dice) or the last decision."""


class Terminal:
    """Reads and writes through click (works with a terminal and with CliRunner's input)."""

    def ask(self, prompt):
        if sys.stdin is None:  # Python's stand-in for a standard input closed at start-up
            raise InputClosed
        return click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")

    def say(self, text=""):
        click.echo(text)


def play(game, table, record_path, terminal=None, coach=False, rng=None, goal=None, target_table=None):
    """Play `game` to its end or until the player stops; returns "finished", "quit" or
    "interrupted".  The dice come from `rng` (numpy Generator), or are typed when
    game.real_dice.  The record is written to `record_path` after every decision.  `goal`
    (advice/goal.py; default points) is what the coach ranks by; a target needs `target_table`."""
    terminal = terminal or Terminal()
    session = _Session(game, table, record_path, terminal, coach, rng)
    session.goal = goal if goal is not None and goal.kind != "points" else None
    session.target_table = target_table
    save_record(game.record(), record_path)  # an unwritable path fails now, not after a turn
    try:
        session.run()
        status = "finished"
    except Quit:
        status = "quit"
    except InputClosed:
        click.echo("kniffel: standard input is closed, so no move can be read: the game stops",
                   err=True)
        status = "interrupted"
    except (KeyboardInterrupt, EOFError, click.exceptions.Abort):
        terminal.say()
        status = "interrupted"
    game = session.game  # an undo replays the record into a new Game
    save_record(game.record(), record_path)
    if status == "finished":
        session.show_card()
        for line in summary_lines(game, table):
            terminal.say(line)
        totals = game.totals()
        if len(totals) > 1:
            best = max(totals.values())
            winners = [name for name, total in totals.items() if total == best]
            terminal.say(f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with {best}.")
        else:
            terminal.say(f"Final score: {next(iter(totals.values()))}.")
    terminal.say(f"game {'saved' if status == 'finished' else 'saved (unfinished)'} to {record_path}"
                 f"; see what each decision cost: kniffel analyze {record_path}")
    return status


class _Session:
    def __init__(self, game, table, record_path, terminal, coach, rng):
        self.game = game
        self.rules = game.rules
        self.table = table
        self.record_path = record_path
        self.terminal = terminal
        self.coach = coach
        self.rng = rng
        self.goal = None  # None: the coach ranks by expected final score
        self.target_table = None
        self._ranked = {}  # (player, round, dice, rolls left) -> the goal's ranking, one a decision

    def run(self):
        say = self.terminal.say
        say(f"{self.rules.key}: {self.rules.description}")
        say(KEEP_HELP)
        while not self.game.over:
            game = self.game
            turn = game.next_turn()
            self.show_card()
            name = game.players[turn.player]
            say(f"Round {turn.record['round']}, {name}" + ("" if len(game.columns) == 1 else "'s turn")
                + (f" ({turn.column.jokers_left} joker{'s' if turn.column.jokers_left != 1 else ''} left)"
                   if self.rules.jokers else ""))
            try:
                self.play_turn(turn)
            except Undo:
                self.undo(turn)

    def undo(self, turn):
        """One step back (sessions.undo): the game is rebuilt from its record, and seeded dice
        continue where the kept record leaves them, so retaking a step rolls the same dice."""
        hand = list(turn.dice) if turn.dice is not None else None
        record, hand = sessions.undo(self.game.record(), hand)
        if record == self.game.record() and hand == (list(turn.dice) if turn.dice is not None else None):
            self.terminal.say("  nothing to undo")
            return
        self.game, turn = sessions.rebuild(record, hand)
        if self.rng is not None and self.game.seed is not None:
            self.rng = sessions.seeded_rng(self.game.seed, record, hand)
        self.saved()
        self.terminal.say("  undone: " + (f"dice {' '.join(map(str, hand))} in hand again" if hand
                                          else "type the roll again"))

    def ask_quit(self):
        """q: quit at once alone; with several players only after a yes."""
        if len(self.game.columns) > 1:
            answer = self.terminal.ask("end the game for every player? (saved; resume with "
                                       "--resume) y/N").strip().lower()
            if answer not in ("y", "yes", "j", "ja"):
                return
        raise Quit

    def play_turn(self, turn):
        while not turn.done:
            if turn.awaiting_roll:
                self.roll(turn)
            else:
                self.show_dice(turn, ())
            advice = None
            stopping = False
            while not turn.done and turn.dice is not None:
                if self.coach and advice is None:
                    advice = self.advice(turn)
                    self.show_coach(turn, advice, COACH_TOP)
                choose_box = stopping or turn.rolls_left == 0
                if choose_box:
                    self.show_boxes(turn)
                prompt = "box?" if choose_box else "keep?"
                answer = self.terminal.ask(prompt).strip()
                try:
                    if answer.lower() in ("q", "quit"):
                        self.ask_quit()
                        continue
                    if answer.lower() in ("u", "undo") and not turn.jokers:
                        raise Undo
                    if answer == "?":
                        advice = advice or self.advice(turn)
                        self.show_coach(turn, advice, None)
                    elif choose_box:
                        stopping = self.box_answer(turn, answer, stopping, advice)
                    else:
                        stopping = self.keep_answer(turn, answer, advice)
                except GameError as exc:
                    self.terminal.say(f"  ! {exc}")

    def roll(self, turn):
        """Roll the dice not kept (or ask for the dice thrown at the table)."""
        say = self.terminal.say
        held = turn.kept
        if self.game.real_dice:
            kept = " ".join(map(str, turn.kept))
            number = self.rules.rolls_per_turn - turn.rolls_left + 1
            while True:
                dice = "the die" if turn.n_to_roll == 1 else f"the {turn.n_to_roll} dice"
                prompt = f"roll {number}: {dice} thrown" + (f" (holding {kept})" if kept else "") + "?"
                answer = self.terminal.ask(prompt).strip()
                if answer.lower() in ("q", "quit"):
                    self.ask_quit()
                    continue
                if answer.lower() in ("u", "undo"):
                    raise Undo
                try:
                    turn.roll(parse_faces(answer))
                    break
                except GameError as exc:
                    say(f"  ! {exc}")
        else:
            turn.roll(self.rng.integers(1, 7, size=turn.n_to_roll).tolist())
        self.show_dice(turn, held)

    def show_dice(self, turn, held):
        """The dice in hand, the ones held from the roll before marked with *."""
        marks = list(held)
        shown = []
        for face in turn.dice:
            shown.append(f"{face}*" if face in marks else str(face))
            if face in marks:
                marks.remove(face)
        left = turn.rolls_left
        number = self.rules.rolls_per_turn - left
        self.terminal.say(f"  roll {number}: {' '.join(shown)}   ({left} roll{'s' if left != 1 else ''} left)"
                          + ("   (* held)" if held else ""))

    def keep_answer(self, turn, answer, advice):
        """Apply an answer at the keep prompt; returns True when the player stops rolling."""
        if answer.lower() == "a":
            return True
        if answer == "" or answer[0].isdecimal():
            keep = parse_faces(answer)
            if len(keep) == 5 and is_sub_multiset(keep, turn.dice):
                return True
            dice = turn.dice
            decision_advice = advice or (self.advice(turn) if self.coach else None)
            turn.keep(keep)
            self.saved()
            self.feedback(turn, dice, {"keep": list(keep)}, decision_advice)
            return False
        try:
            box = parse_box(answer, self.rules)
        except GameError:
            raise GameError(f"{answer!r} is neither dice nor a box: {KEEP_HELP}") from None
        self.score(turn, box, advice)
        return False

    def box_answer(self, turn, answer, stopping, advice):
        """Apply an answer at the box prompt; returns whether the player still stops rolling."""
        lowered = answer.lower()
        if answer == "":
            if turn.rolls_left:
                return False  # back to the keep prompt
            raise GameError(BOX_HELP + (JOKER_HELP if self.rules.jokers else ""))
        if lowered == "u" and self.rules.jokers:
            turn.undo_jokers()
            self.terminal.say(f"  dice: {' '.join(map(str, turn.hand))}")
            return stopping
        if lowered.startswith("j") and self.rules.jokers:
            parts = lowered[1:].replace("->", " ").replace(",", " ").split()
            if len(parts) == 1 and len(parts[0]) == 2:
                parts = list(parts[0])
            if len(parts) != 2 or not all(p.isdecimal() for p in parts):
                raise GameError("a joker is j FROM TO, e.g. j 5 6 turns a 5 into a 6")
            turn.joker(int(parts[0]), int(parts[1]))
            self.terminal.say(f"  joker: dice now {' '.join(map(str, turn.hand))}")
            return stopping
        self.score(turn, parse_box(answer, self.rules), advice)
        return stopping

    def score(self, turn, box, advice):
        dice = turn.dice
        decision_advice = advice or (self.advice(turn) if self.coach else None)
        before = turn.column.total(self.rules)
        points, paid = turn.score(box)
        self.saved()
        gained = turn.column.total(self.rules) - before - points
        extra = []
        if paid:
            extra.append(f"+{paid * self.rules.extra_bonus} extra-Kniffel bonus")
        if gained - paid * self.rules.extra_bonus:
            extra.append(f"+{gained - paid * self.rules.extra_bonus} upper bonus")
        self.terminal.say(f"  {self.game.players[turn.player]}: {points} in {sessions.box_label(box, self.rules)}"
                          + (f" ({', '.join(extra)})" if extra else "")
                          + f", total {turn.column.total(self.rules)}")
        self.feedback(turn, dice, turn.record["decisions"][-1], decision_advice)

    def saved(self):
        save_record(self.game.record(), self.record_path)

    def advice(self, turn):
        return advise(turn.position, self.table, dice=turn.dice, rolls_left=turn.rolls_left)

    def goal_ranking(self, turn, dice, rolls_left):
        """The options ranked by the goal (advice/goal.py), once per decision point."""
        key = (turn.player, turn.record["round"], tuple(dice), rolls_left)
        if key not in self._ranked:
            self._ranked = {key: goal_ranking(self.goal, turn.position, self.table, self.target_table,
                                             self.game.opponents(turn.player), list(dice), rolls_left)}
        return self._ranked[key]

    def feedback(self, turn, dice, decision, advice):
        """With --coach: what the decision just taken cost (with a goal: in its chance too)."""
        if advice is None:
            return
        loss = advice.expected_final_score - choice_value(self.table, turn.state, dice, decision, advice)
        if self.goal is not None:
            from ..advice.goal import matching_option
            rolls_left = decision.get("rolls_left", turn.rolls_left)  # a keep: the turn still has them
            ranked = self.goal_ranking(turn, dice, rolls_left)
            option = matching_option(ranked.options, decision)
            chance_loss = ranked.probability - option["probability"]
            best = "" if chance_loss < 5e-10 else (
                f"; best for {self.goal} was {describe_choice(option_as_decision(ranked.options[0]))}")
            self.terminal.say(f"  coach: {self.goal.chance_name} {100 * option['probability']:.2f}%, "
                              + ("best" if chance_loss < 5e-10 else f"cost {100 * chance_loss:.2f}%")
                              + f"; in points {cost_text(loss)}{best}")
            return
        best = "" if loss <= OPTIMAL_TOLERANCE else (
            f"; best was {describe_choice(option_as_decision(advice.options[0]))}")
        self.terminal.say(f"  coach: {cost_text(loss)}{best}")

    def show_goal_coach(self, turn, advice, top):
        """The options ranked by the goal: its chance, the expected final score, both costs."""
        say = self.terminal.say
        ranked = self.goal_ranking(turn, turn.dice, turn.rolls_left)
        shown = ranked.options if top is None else ranked.options[:top]
        name = self.goal.chance_name + (" ≈" if ranked.method == "approximate" else "")
        say(f"  coach for {self.goal} ({turn.rolls_left} roll{'s' if turn.rolls_left != 1 else ''} left, "
            f"dice {' '.join(map(str, turn.dice))}): {name}, expected final score, cost against the best")
        if ranked.method == "approximate":
            low, high = ranked.interval
            say(f"       ≈: estimates; the chance from here lies in [{100 * low:.2f}%, {100 * high:.2f}%]")
            if ranked.note and not getattr(self, "_noted", False):
                say(f"       note: {ranked.note}")  # once a game
                self._noted = True
        for rank, option in enumerate(shown, 1):
            text = describe_choice(option_as_decision(option))
            if option["action"] == "keep":
                text += f", reroll {' '.join(map(str, option['reroll'])) if option['keep'] else 'all'}"
            cost = ranked.probability - option["probability"]
            say(f"  {rank:>3}. {text:<34} {100 * option['probability']:7.2f}% "
                f"{option['expected_final_score']:9.2f}  "
                + ("best" if cost < 5e-10 else f"cost {100 * cost:.2f}%"))
        if len(shown) < len(ranked.options):
            say(f"       ({len(ranked.options) - len(shown)} more: type ?)")
        say(f"       playing for points instead: expected {advice.expected_final_score:.2f}")

    def show_coach(self, turn, advice, top):
        if self.goal is not None:
            self.show_goal_coach(turn, advice, top)
            return
        say = self.terminal.say
        shown = advice.options if top is None else advice.options[:top]
        best = advice.expected_final_score
        say(f"  coach ({turn.rolls_left} roll{'s' if turn.rolls_left != 1 else ''} left, "
            f"dice {' '.join(map(str, turn.dice))}): expected final score, cost against the best")
        for rank, option in enumerate(shown, 1):
            value = option["expected_final_score"]
            text = describe_choice(option_as_decision(option))
            if option["action"] == "keep":
                text += f", reroll {' '.join(map(str, option['reroll'])) if option['keep'] else 'all'}"
            elif option.get("kniffel_joker"):
                text += " as Kniffel joker"
            say(f"  {rank:>3}. {text:<34} {value:9.2f}  {cost_text(best - value)}")
        if len(shown) < len(advice.options):
            say(f"       ({len(advice.options) - len(shown)} more: type ?)")

    def show_boxes(self, turn):
        options = turn.options()
        cells = [f"{self.rules.boxes.index(box) + 1} {sessions.box_label(box, self.rules)} {points}" + (f"+{paid * self.rules.extra_bonus}" if paid else "")
                 for box, (points, paid) in options.items()]
        line = "  open:"
        for cell in cells:  # wrapped for an 80-column terminal
            if len(line) + len(cell) > 78:
                self.terminal.say(line)
                line = "       "
            line += f" {cell} ·" if cell != cells[-1] else f" {cell}"
        self.terminal.say(line)
        if self.rules.jokers and turn.rolls_left == 0 and turn.column.jokers_left > len(turn.jokers):
            self.terminal.say("  (j 5 6 = joker: turn a 5 into a 6)")

    def show_card(self):
        for line in card_lines(self.game):
            self.terminal.say(line)


def card_lines(game):
    """The card as on the paper pad: a row per box, a column per player, sums and bonuses."""
    rules = game.rules
    columns = game.columns
    width = max(6, *(len(c.name) for c in columns))
    names = {box: sessions.box_label(box, rules) for box in rules.boxes}  # as on the pad
    label = max(len(n) for n in names.values()) + 4

    def row(text, cells):
        return f"  {text:<{label}}" + "".join(f" {c:>{width}}" for c in cells)

    lines = [row("", [c.name for c in columns])]
    for b, box in enumerate(rules.boxes):
        lines.append(row(f"{b + 1:>2} {names[box]}", [str(c.card.get(box, "-")) for c in columns]))
        if b == 5:
            upper = [sum(c.card.get(x, 0) for x in rules.boxes[:6]) for c in columns]
            lines.append(row("   upper total", [str(u) for u in upper]))
            lines.append(row(f"   bonus ({rules.upper_bonus_threshold}+)",
                             [str(rules.upper_bonus if u >= rules.upper_bonus_threshold else 0) for u in upper]))
    if rules.extra_bonus:
        lines.append(row("   extra Kniffel", [str(c.kniffel_bonuses * rules.extra_bonus) for c in columns]))
    if rules.jokers:
        lines.append(row("   jokers left", [str(c.jokers_left) for c in columns]))
    lines.append(row("   total", [str(c.total(rules)) for c in columns]))
    return lines


def summary_lines(game, table):
    """The end of a game: each player's points given away, and optimal play's expected score."""
    result = analyze(game.record(), table)
    lines = [f"Expected final score at the start, playing best: {sessions.start_expectation(table):.2f}."]
    for p in result["players"]:
        lines.append(f"{p['name']}: {p['score']}, gave away {p['loss']:.1f} points "
                     f"({p['optimal']} of {p['decisions']} decisions optimal)")
    return lines


def seeded_rng(seed, record=None):
    """The dice of a seeded game: numpy's default generator (PCG64) from `seed`, past the rolls
    of `record` (a resumed game)."""
    return sessions.seeded_rng(seed, record)
