"""The terminal side of `kniffel play`: show the card and dice, read the player's moves, coach.

The game itself (moves, points, the record) is solver/game/; this package only talks: the moves
here, the coach in coach.py, the card and the terminal in card.py.  Every answer a player types
is checked by the game; a mistake is explained and asked again, never the end of the game.  The
record is saved after every decision and when the game stops (q, Ctrl-C, end of input), so
nothing is lost.
"""
import click

from ..advice.goal import POINTS
from ..game import session as sessions
from ..game.card import GameError, is_sub_multiset, parse_box, parse_faces
from ..game.record import save_record
from ..lang import Words
from .card import (
    InputClosed,
    LineTooLong,
    Quit,
    Terminal,
    Undo,
    card_lines,
    limit_input,
    shown_name,
    summary_lines,
)
from .coach import COACH_TOP, Coach


def play(game, tables, record_path, terminal=None, coach=False, rng=None, goal=None, lang=None):
    """Play `game` to its end or until the player stops; returns "finished", "quit", "ended"
    (end of input) or "interrupted".  The dice come from `rng` (numpy Generator), or are typed
    when game.real_dice.  The record is written to `record_path` after every decision.  `goal`
    (advice/goal.py; default points) is what the coach ranks by; `tables` the cache
    (ask/tables.py) its advice reads.
    `lang`: "de" or "en" (default: the pad's language of the rules)."""
    terminal = terminal or Terminal()
    session = _Session(game, tables, record_path, terminal, coach, rng)
    session.words = w = Words(lang, game.rules)
    session.goal = goal if goal not in (None, POINTS) else None
    save_record(game.record(), record_path)  # an unwritable path fails now, not after a turn
    limit_input()
    try:
        session.run()
        status = "finished"
    except LineTooLong:  # no move: the game stops, saved, and the command says why
        terminal.say()
        save_record(session.game.record(), record_path)
        raise
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
        for line in summary_lines(game, tables, w):
            terminal.say(line)
        totals = game.totals()
        if len(totals) > 1:
            best = max(totals.values())
            winners = [name for name, total in totals.items() if total == best]
            terminal.say(w("play.wins", names=w("and").join(winners), n=len(winners), best=best))
        else:
            terminal.say(w("play.final", total=next(iter(totals.values()))))
    terminal.say(w("play.saved" if status == "finished" else "play.saved_unfinished",
                   path=record_path))
    return status


class _Session(Coach):
    """A game being played at the terminal: its moves (here) and its coach (coach.py)."""

    def __init__(self, game, tables, record_path, terminal, coach, rng):
        self.game = game
        self.rules = game.rules
        self.tables = tables
        self.record_path = record_path
        self.terminal = terminal
        self.coach = coach
        self.rng = rng
        self.goal = None  # None: the coach ranks by expected final score
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
        if record == self.game.record() \
                and hand == (list(turn.dice) if turn.dice is not None else None):
            self.terminal.say("  " + self.words("play.nothing_to_undo"))
            return
        self.game, turn = sessions.rebuild(record, hand)
        if self.rng is not None and self.game.seed is not None:
            self.rng = sessions.seeded_rng(self.game.seed, record, hand)
        self.saved()
        self.terminal.say("  " + (self.words("play.undone_dice", dice=self.words.faces(hand))
                                  if hand else self.words("play.undone_roll")))

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
                        self.show_why(turn)
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
            raise GameError(self.words("play.neither", answer=answer,
                                       help=self.words("play.keep_help"))) from None
        self.score(turn, box, advice)
        return False

    def box_answer(self, turn, answer, stopping, advice):
        """Apply an answer at the box prompt; returns whether the player still stops rolling."""
        lowered = answer.lower()
        if answer == "":
            if turn.rolls_left:
                return False  # back to the keep prompt
            raise GameError(self.words("play.box_help")
                            + (self.words("play.joker_help") if self.rules.jokers else ""))
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
            self.terminal.say("  " + self.words("play.joker_done",
                                                dice=self.words.faces(turn.hand)))
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
        player = shown_name(self.game.players[turn.player], len(self.game.columns), w)
        self.terminal.say("  " + w("play.scored", player=player,
                                   points=points, box=w.box(box),
                                   extra=f" ({', '.join(extra)})" if extra else "",
                                   total=turn.column.total(self.rules)))
        self.feedback(turn, dice, turn.record["decisions"][-1], decision_advice)

    def saved(self):
        save_record(self.game.record(), self.record_path)

    def show_boxes(self, turn):
        w, rules = self.words, self.rules
        options = turn.options()
        cells = [f"{rules.boxes.index(box) + 1} {w.box(box)} {points}"
                 + (f"+{paid * rules.extra_bonus}" if paid else "")
                 for box, (points, paid) in options.items()]
        line = "  " + w("play.open")
        indent = " " * len(line)
        width = self.terminal.width - 2
        for cell in cells:  # wrapped between cells to the terminal's width
            if len(line) + len(cell) > width:
                self.terminal.say(line)
                line = indent
            line += f" {cell} ·" if cell != cells[-1] else f" {cell}"
        self.terminal.say(line)
        if rules.jokers and turn.rolls_left == 0 and turn.column.jokers_left > len(turn.jokers):
            self.terminal.say("  " + w("play.joker_hint"))

    def show_card(self):
        for line in card_lines(self.game, self.words):
            self.terminal.table(line)  # a table is never wrapped
