"""The terminal side of `kniffel play`: show the card and dice, read the player's moves, coach.

The game itself (moves, points, the record) is solver/game.py; this module only talks.  Every
answer a player types is checked by the game; a mistake is explained and asked again, never the
end of the game.  The record is saved after every decision and when the game stops (q, Ctrl-C,
end of input), so nothing is lost.
"""
import shutil
import sys
import textwrap

import click

from ..advice.answer import answer
from ..advice.goal import POINTS, chance_given_up, matching_option
from ..lang import Words
from ..advice.win.approximation import method_words
from .analysis import goal_ranking
from . import session as sessions
from .analysis import OPTIMAL_TOLERANCE, analyze, choice_value, describe_choice, option_as_decision
from .card import GameError, is_sub_multiset, parse_box, parse_faces
from .record import save_record

COACH_TOP = 5  # options --coach shows before each decision; `?` shows them all


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
        try:
            return click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
        except click.exceptions.Abort as exc:  # click turns Ctrl-C and end of input into Abort
            if isinstance(exc.__context__, EOFError):
                raise EOFError from None
            raise

    def say(self, text=""):
        """Print `text`, each line wrapped at word boundaries to the terminal's width."""
        click.echo(wrapped(text, self.width))

    def table(self, text=""):
        """Print a line of a table as it is: its columns must stay aligned."""
        click.echo(text)

    @property
    def width(self):
        """Columns of the terminal (COLUMNS first, else the terminal's, else 80)."""
        return shutil.get_terminal_size((80, 24)).columns


def wrapped(text, width):
    """`text` with each line longer than `width` - 1 broken at word boundaries (a word longer
    than a line stays whole: never broken mid-word), its continuations indented as the line
    plus two spaces.  One column is left free: a terminal wraps a line that fills it."""
    width = max(20, width - 1)
    out = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent + "  ", break_long_words=False,
                                 break_on_hyphens=False) or [line])
    return "\n".join(out)


def play(game, table, record_path, terminal=None, coach=False, rng=None, goal=None, target_table=None,
         lang=None):
    """Play `game` to its end or until the player stops; returns "finished", "quit", "ended"
    (end of input) or "interrupted".  The dice come from `rng` (numpy Generator), or are typed
    when game.real_dice.  The record is written to `record_path` after every decision.  `goal`
    (advice/goal.py; default points) is what the coach ranks by; a target needs `target_table`.
    `lang`: "de" or "en" (default: the pad's language of the rules)."""
    terminal = terminal or Terminal()
    session = _Session(game, table, record_path, terminal, coach, rng)
    session.words = w = Words(lang, game.rules)
    session.goal = goal if goal not in (None, POINTS) else None
    session.target_table = target_table
    save_record(game.record(), record_path)  # an unwritable path fails now, not after a turn
    try:
        session.run()
        status = "finished"
    except Quit:
        status = "quit"
    except InputClosed:  # the end of input before the first move: the game stops, saved
        click.echo("kniffel: " + w("play.stdin_closed"), err=True)
        status = "ended"
    except EOFError:  # end of input (a pipe or file ran out, Ctrl-D): not an interruption
        terminal.say()
        terminal.say(w("play.input_ended"))
        status = "ended"
    except (KeyboardInterrupt, click.exceptions.Abort):
        terminal.say()
        status = "interrupted"
    game = session.game  # an undo replays the record into a new Game
    save_record(game.record(), record_path)
    if status == "finished":
        session.show_card()
        for line in summary_lines(game, table, w):
            terminal.say(line)
        totals = game.totals()
        if len(totals) > 1:
            best = max(totals.values())
            winners = [name for name, total in totals.items() if total == best]
            terminal.say(w("play.wins", names=w("and").join(winners), n=len(winners), best=best))
        else:
            terminal.say(w("play.final", total=next(iter(totals.values()))))
    terminal.say(w("play.saved" if status == "finished" else "play.saved_unfinished", path=record_path))
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
        self.words = Words(None, game.rules)

    def run(self):
        say, w = self.terminal.say, self.words
        say(f"{self.rules.key}: {w.description(self.rules)}")
        say(w("play.keep_help"))
        while not self.game.over:
            game = self.game
            turn = game.next_turn()
            self.show_card()
            name = game.players[turn.player]
            say((w("play.round", round=turn.record["round"]) if len(game.columns) == 1
                 else w("play.round_player", round=turn.record["round"], name=name))
                + (w("play.jokers", n=turn.column.jokers_left) if self.rules.jokers else ""))
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
            self.terminal.say("  " + self.words("play.nothing_to_undo"))
            return
        self.game, turn = sessions.rebuild(record, hand)
        if self.rng is not None and self.game.seed is not None:
            self.rng = sessions.seeded_rng(self.game.seed, record, hand)
        self.saved()
        self.terminal.say("  " + (self.words("play.undone_dice", dice=self.words.faces(hand)) if hand
                                  else self.words("play.undone_roll")))

    def ask_quit(self):
        """q: quit at once alone; with several players only after a yes."""
        if len(self.game.columns) > 1:
            answer = self.terminal.ask(self.words("play.quit_ask")).strip().lower()
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
                prompt = self.words("play.prompt_box" if choose_box else "play.prompt_keep")
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
                    self.terminal.say(f"  ! {exc.text(self.words.lang)}")

    def roll(self, turn):
        """Roll the dice not kept (or ask for the dice thrown at the table)."""
        say, w = self.terminal.say, self.words
        held = turn.kept
        if self.game.real_dice:
            kept = " ".join(map(str, turn.kept))
            number = self.rules.rolls_per_turn - turn.rolls_left + 1
            while True:
                prompt = w("play.roll_prompt", number=number, n=turn.n_to_roll,
                           holding=w("play.holding", kept=kept) if kept else "")
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
                    say(f"  ! {exc.text(w.lang)}")
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
        w = self.words
        self.terminal.say("  " + w("play.dice", number=number, dice=" ".join(shown),
                                   left=w("rolls_left", n=left)) + (w("play.held") if held else ""))

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
            raise GameError(self.words("play.neither", answer=answer, help=self.words("play.keep_help"))) from None
        self.score(turn, box, advice)
        return False

    def box_answer(self, turn, answer, stopping, advice):
        """Apply an answer at the box prompt; returns whether the player still stops rolling."""
        lowered = answer.lower()
        if answer == "":
            if turn.rolls_left:
                return False  # back to the keep prompt
            raise GameError(self.words("play.box_help") + (self.words("play.joker_help") if self.rules.jokers else ""))
        if lowered == "u" and self.rules.jokers:
            turn.undo_jokers()
            self.terminal.say("  " + self.words("play.dice_now", dice=self.words.faces(turn.hand)))
            return stopping
        if lowered.startswith("j") and self.rules.jokers:
            parts = lowered[1:].replace("->", " ").replace(",", " ").split()
            if len(parts) == 1 and len(parts[0]) == 2:
                parts = list(parts[0])
            if len(parts) != 2 or not all(p.isdecimal() for p in parts):
                raise GameError(self.words("play.joker_form"))
            turn.joker(int(parts[0]), int(parts[1]))
            self.terminal.say("  " + self.words("play.joker_done", dice=self.words.faces(turn.hand)))
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
        w, kniffel = self.words, self.words.box(self.rules.boxes[self.rules.kniffel_box])
        extra = []
        if paid:
            extra.append(w("play.extra_bonus", n=paid * self.rules.extra_bonus, kniffel=kniffel))
        if gained - paid * self.rules.extra_bonus:
            extra.append(w("play.upper_bonus", n=gained - paid * self.rules.extra_bonus))
        self.terminal.say("  " + w("play.scored", player=self.game.players[turn.player], points=points,
                                   box=w.box(box), extra=f" ({', '.join(extra)})" if extra else "",
                                   total=turn.column.total(self.rules)))
        self.feedback(turn, dice, turn.record["decisions"][-1], decision_advice)

    def saved(self):
        save_record(self.game.record(), self.record_path)

    def advice(self, turn):
        return answer(turn.position, self.table, dice=turn.dice, rolls_left=turn.rolls_left)

    def goal_ranking(self, turn, dice, rolls_left):
        """The options ranked by the goal (advice/goal.py), once per decision point."""
        key = (turn.player, turn.record["round"], tuple(dice), rolls_left)
        if key not in self._ranked:
            self._ranked = {key: self._goal_ranking(turn, dice, rolls_left)}
        return self._ranked[key]

    def _goal_ranking(self, turn, dice, rolls_left):
        """goal_ranking's Advice, or None where the goal's chance is over its budget (the coach
        then advises for points and says why, once a game)."""
        from ..advice.cost import OverBudget
        try:
            return goal_ranking(self.goal, turn.position, self.table, self.target_table,
                                self.game.opponents(turn.player), list(dice), rolls_left)
        except OverBudget as exc:
            if not getattr(self, "_over", False):
                self.terminal.say("  " + self.words("advise.points_instead", seconds=exc.seconds or 0,
                                                    budget=exc.budget or 0))
                self._over = True
            self.say_building(turn)
            return None

    def say_building(self, turn, building=None):
        """How far the background build of the win tables is, once a round while it runs."""
        from ..advice.win.prepare import building_line
        line = building_line(self.words, self.table, building)
        if line is not None and getattr(self, "_built_said", None) != turn.record["round"]:
            self._built_said = turn.record["round"]
            self.terminal.say("  " + line)

    def feedback(self, turn, dice, decision, advice):
        """With --coach: what the decision just taken cost (with a goal: in its chance too)."""
        if advice is None:
            return
        w = self.words
        loss = advice.expected_final_score - choice_value(self.table, turn.state, dice, decision, advice)
        rolls_left = decision.get("rolls_left", turn.rolls_left)  # a keep: the turn still has them
        ranked = self.goal_ranking(turn, dice, rolls_left) if self.goal is not None else None
        if ranked is not None:
            option = matching_option(ranked.options, decision)
            chance_loss = chance_given_up(ranked, option)
            best = "" if chance_loss is None or chance_loss < 5e-10 else w(
                "coach.best_for", goal=self.goal_word(),
                choice=describe_choice(option_as_decision(ranked.options[0]), w))
            self.terminal.say("  " + w("coach.goal_feedback", chance_name=self.chance_name(),
                                       chance=w.percent(option["probability"]),
                                       cost=self.chance_cost(chance_loss), points_cost=w.cost(loss))
                              + best)
            return
        best = "" if loss <= OPTIMAL_TOLERANCE else w(
            "coach.best_was", choice=describe_choice(option_as_decision(advice.options[0]), w))
        self.terminal.say("  " + w("coach.feedback", cost=w.cost(loss)) + best)

    def goal_word(self):
        return self.goal.word(self.words)

    def chance_name(self):
        return self.goal.chance_word(self.words)

    def chance_cost(self, loss):
        """A loss of chance: "best" or "cost 1.25%" ("-": not known, chance_given_up)."""
        w = self.words
        return "-" if loss is None else w("best") if loss < 5e-10 else w("cost_chance", chance=w.percent(loss))

    def option_text(self, option):
        """An option of the coach's list: the choice, and for a keep the dice rerolled."""
        w = self.words
        text = describe_choice(option_as_decision(option), w)
        if option["action"] == "keep":
            if option["keep"]:
                return w("choice.reroll", text=text, dice=w.faces(option["reroll"]))
            return w("choice.reroll_all", text=text)
        if option.get("kniffel_joker"):
            return w("choice.as_joker", text=text, kniffel=w.box(self.rules.boxes[self.rules.kniffel_box]))
        return text

    def show_goal_coach(self, turn, advice, top):
        """The options ranked by the goal: its chance, the expected final score, both costs."""
        say, w = self.terminal.say, self.words
        ranked = self.goal_ranking(turn, turn.dice, turn.rolls_left)
        shown = ranked.options if top is None else ranked.options[:top]
        approx = " ≈" if ranked.method == "approximate" else ""
        say("  " + w("coach.goal_head", goal=self.goal_word(), left=w("rolls_left", n=turn.rolls_left),
                     dice=w.faces(turn.dice), chance_name=self.chance_name() + approx))
        if ranked.method == "approximate":
            say("       " + method_words(ranked, w))
            self.say_building(turn, ranked.building)
            if ranked.note and ranked.building is None and not getattr(self, "_noted", False):
                say("       " + w("advise.no_target_table"))  # once a game
                self._noted = True
        for rank, option in enumerate(shown, 1):
            cost = chance_given_up(ranked, option)
            say(f"  {rank:>3}. {self.option_text(option):<34} {w.percent(option['probability']):>8} "
                f"{option['expected_final_score']:9.2f}  {self.chance_cost(cost)}")
        if len(shown) < len(ranked.options):
            say("       " + w("coach.more", n=len(ranked.options) - len(shown)))
        say("       " + w("coach.points_instead", value=advice.expected_final_score))

    def show_coach(self, turn, advice, top):
        if self.goal is not None and self.goal_ranking(turn, turn.dice, turn.rolls_left) is not None:
            self.show_goal_coach(turn, advice, top)
            return
        say, w = self.terminal.say, self.words
        shown = advice.options if top is None else advice.options[:top]
        best = advice.expected_final_score
        say("  " + w("coach.head", left=w("rolls_left", n=turn.rolls_left), dice=w.faces(turn.dice)))
        for rank, option in enumerate(shown, 1):
            value = option["expected_final_score"]
            say(f"  {rank:>3}. {self.option_text(option):<34} {value:9.2f}  {w.cost(best - value)}")
        if len(shown) < len(advice.options):
            say("       " + w("coach.more", n=len(advice.options) - len(shown)))

    def show_boxes(self, turn):
        w, rules = self.words, self.rules
        options = turn.options()
        cells = [f"{rules.boxes.index(box) + 1} {w.box(box)} {points}"
                 + (f"+{paid * rules.extra_bonus}" if paid else "") for box, (points, paid) in options.items()]
        line = "  " + w("play.open")
        indent = " " * len(line)
        width = getattr(self.terminal, "width", 80) - 2
        for cell in cells:  # wrapped between cells to the terminal's width
            if len(line) + len(cell) > width:
                self.terminal.say(line)
                line = indent
            line += f" {cell} ·" if cell != cells[-1] else f" {cell}"
        self.terminal.say(line)
        if rules.jokers and turn.rolls_left == 0 and turn.column.jokers_left > len(turn.jokers):
            self.terminal.say("  " + w("play.joker_hint"))

    def show_card(self):
        table = getattr(self.terminal, "table", self.terminal.say)  # a table is never wrapped
        for line in card_lines(self.game, self.words):
            table(line)



def card_lines(game, words=None):
    """The card as on the paper pad: a row per box, a column per player, sums and bonuses."""
    rules = game.rules
    w = words or Words(None, rules)
    columns = game.columns
    width = max(6, *(len(c.name) for c in columns))
    names = {box: w.box(box) for box in rules.boxes}  # as on the pad
    label = max(len(n) for n in names.values()) + 4

    def row(text, cells):
        return f"  {text:<{label}}" + "".join(f" {c:>{width}}" for c in cells)

    lines = [row("", [c.name for c in columns])]
    for b, box in enumerate(rules.boxes):
        lines.append(row(f"{b + 1:>2} {names[box]}", [str(c.card.get(box, "-")) for c in columns]))
        if b == 5:
            upper = [sum(c.card.get(x, 0) for x in rules.boxes[:6]) for c in columns]
            lines.append(row("   " + w("card.upper_total"), [str(u) for u in upper]))
            lines.append(row("   " + w("card.bonus", threshold=rules.upper_bonus_threshold),
                             [str(rules.upper_bonus if u >= rules.upper_bonus_threshold else 0) for u in upper]))
    if rules.extra_bonus:
        lines.append(row("   " + w("card.extra", kniffel=names[rules.boxes[rules.kniffel_box]]),
                         [str(c.kniffel_bonuses * rules.extra_bonus) for c in columns]))
    if rules.jokers:
        lines.append(row("   " + w("card.jokers_left"), [str(c.jokers_left) for c in columns]))
    lines.append(row("   " + w("card.total"), [str(c.total(rules)) for c in columns]))
    return lines


def summary_lines(game, table, words=None):
    """The end of a game: each player's points given away, and optimal play's expected score."""
    w = words or Words(None, game.rules)
    result = analyze(game.record(), table)
    lines = [w("summary.start", value=sessions.start_expectation(table))]
    for p in result["players"]:
        lines.append(w("summary.player", name=p["name"], score=p["score"], loss=p["loss"],
                       optimal=p["optimal"], n=p["decisions"]))
    return lines


def seeded_rng(seed, record=None):
    """The dice of a seeded game: numpy's default generator (PCG64) from `seed`, past the rolls
    of `record` (a resumed game)."""
    return sessions.seeded_rng(seed, record)
