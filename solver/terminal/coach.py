"""The coach of the terminal game (`kniffel play --coach`): the ranked choices before each
decision, what the choice made cost, and for a goal (a target, a win) its chance, all asked of
the one door (ask/answer.py) as every question is."""
from ..advice.choices import chance_given_up, describe_choice, matching_option, option_as_decision
from ..advice.goal import POINTS
from ..advice.limits import WHY_BUDGET
from ..advice.position import checked_query
from ..advice.why import over_budget_text, why_parts
from ..advice.win.approximation import method_words
from ..ask.analysis import OPTIMAL_TOLERANCE, choice_value
from ..ask.answer import answer, fallback_text
from ..ask.build import tables_text
from ..ask.request import Request

COACH_TOP = 5  # options --coach shows before each decision; `?` shows them all


class Coach:
    """The coaching half of the terminal game (terminal/game.py's session): reads its game,
    rules, tables, goal, words and terminal."""

    said_fallback = False  # the reason the goal's advice is for points: said once a game
    said_building = None  # the round the win tables' build or its offer was said in
    said_note = False  # no target table: said once a game

    def query(self, turn, dice=None, rolls_left=None):
        """The checked position of the decision in hand (its dice, or `dice` with `rolls_left`)."""
        dice = turn.dice if dice is None else dice
        rolls_left = turn.rolls_left if rolls_left is None else rolls_left
        return checked_query(turn.position, self.rules, list(dice), rolls_left)

    def advice(self, turn):
        """The advice for points of the decision in hand, asked of the one door."""
        return answer(Request(self.query(turn), POINTS), self.tables)

    def goal_ranking(self, turn, dice, rolls_left):
        """The options ranked by the goal (advice/goal.py), once per decision point."""
        key = (turn.player, turn.record["round"], tuple(dice), rolls_left)
        if key not in self._ranked:
            self._ranked = {key: self._goal_ranking(turn, dice, rolls_left)}
        return self._ranked[key]

    def _goal_ranking(self, turn, dice, rolls_left):
        """The goal's Advice from the one door, or None where it answered for points instead
        (the coach then advises for points and says why, once a game)."""
        goal = self.goal
        if goal.kind == "win":
            goal = goal.with_opponents(self.game.opponents(turn.player))
        advice = answer(Request(self.query(turn, dice, rolls_left), goal), self.tables)
        if advice.fallback is None:
            return advice
        if not self.said_fallback:
            self.terminal.say("  " + fallback_text(advice, self.words))
            self.said_fallback = True
        self.say_building(turn, advice)
        return None

    def say_building(self, turn, advice):
        """How far the build of the win tables is, or what it would cost, once a round."""
        said = tables_text(self.words, advice)
        if said is not None and self.said_building != turn.record["round"]:
            self.said_building = turn.record["round"]
            self.terminal.say("  " + said)

    def feedback(self, turn, dice, decision, advice):
        """With --coach: what the decision just taken cost (with a goal: in its chance too)."""
        if advice is None:
            return
        w = self.words
        loss = advice.expected_final_score - choice_value(self.tables(self.rules), turn.state, dice,
                                                          decision, advice)
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
        return ("-" if loss is None else w("best") if loss < 5e-10
                else w("cost_chance", chance=w.percent(loss)))

    def option_text(self, option):
        """An option of the coach's list: the choice, and for a keep the dice rerolled."""
        w = self.words
        text = describe_choice(option_as_decision(option), w)
        if option["action"] == "keep":
            if option["keep"]:
                return w("choice.reroll", text=text, dice=w.faces(option["reroll"]))
            return w("choice.reroll_all", text=text)
        if option.get("kniffel_joker"):
            return w("choice.as_joker", text=text,
                     kniffel=w.box(self.rules.boxes[self.rules.kniffel_box]))
        return text

    def show_goal_coach(self, turn, advice, top):
        """The options ranked by the goal: its chance, the expected final score, both costs."""
        say, w = self.terminal.say, self.words
        ranked = self.goal_ranking(turn, turn.dice, turn.rolls_left)
        shown = ranked.options if top is None else ranked.options[:top]
        approx = " ≈" if ranked.method == "approximate" else ""
        say("  " + w("coach.goal_head", goal=self.goal_word(),
                     left=w("rolls_left", n=turn.rolls_left), dice=w.faces(turn.dice),
                     chance_name=self.chance_name() + approx))
        if ranked.method == "approximate":
            say("       " + method_words(ranked, w))
            self.say_building(turn, ranked)
            if ranked.note and tables_text(w, ranked) is None and not self.said_note:
                say("       " + w("advise.no_target_table"))  # once a game
                self.said_note = True
        for rank, option in enumerate(shown, 1):
            cost = chance_given_up(ranked, option)
            say(f"  {rank:>3}. {self.option_text(option):<34} "
                f"{w.percent(option['probability']):>8} "
                f"{option['expected_final_score']:9.2f}  {self.chance_cost(cost)}")
        if len(shown) < len(ranked.options):
            say("       " + w("coach.more", n=len(ranked.options) - len(shown)))
        say("       " + w("coach.points_instead", value=advice.expected_final_score))

    def show_coach(self, turn, advice, top):
        if self.goal is not None \
                and self.goal_ranking(turn, turn.dice, turn.rolls_left) is not None:
            self.show_goal_coach(turn, advice, top)
            return
        say, w = self.terminal.say, self.words
        shown = advice.options if top is None else advice.options[:top]
        best = advice.expected_final_score
        say("  " + w("coach.head", left=w("rolls_left", n=turn.rolls_left),
                     dice=w.faces(turn.dice)))
        for rank, option in enumerate(shown, 1):
            value = option["expected_final_score"]
            say(f"  {rank:>3}. {self.option_text(option):<34} {value:9.2f}  {w.cost(best - value)}")
        if len(shown) < len(advice.options):
            say("       " + w("coach.more", n=len(advice.options) - len(shown)))

    def show_why(self, turn, top=COACH_TOP):
        """After every choice (`?`): what the `top` best of them play for (advice/why.py), by
        the goal the coach ranks with: the boxes each choice's turn ends in with their chances
        and points, the upper bonus's chance after it, the boxes a box leaves open."""
        say, w = self.terminal.say, self.words
        goal = POINTS
        if self.goal is not None \
                and self.goal_ranking(turn, turn.dice, turn.rolls_left) is not None:
            goal = self.goal.with_opponents(self.game.opponents(turn.player)) \
                if self.goal.kind == "win" else self.goal
        advice = answer(Request(self.query(turn), goal, WHY_BUDGET), self.tables)
        if advice.why.get("available") is False:
            say("  " + w("why.approximate"))
            return
        say("  " + (w("why.head_points") if advice.goal.kind == "points"
                    else w("why.head_goal", goal=advice.goal.word(w))))
        said = over_budget_text(advice.why, w)
        if said is not None:
            say("  " + said)
        for rank, option in enumerate(advice.options[:top], 1):
            parts = why_parts(option, advice.why, w)
            # "1)" where the list of choices says "1.": a why is no row of that table
            say(f"  {rank:>3}) {self.option_text(option)}" + (": " + "; ".join(parts)
                                                               if parts else ""))
