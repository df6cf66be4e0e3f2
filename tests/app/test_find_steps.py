"""FindSteps, the find state both find bars keep: stale outcomes ignored, steps wrapping, the count's words."""

from __future__ import annotations

from notebook_app.app.view_model.finding import Finder, FindSteps

TEXTS = [("MEMORY.md", "- kelp\n- tide\n- kelp again\n")]


def test_an_outcome_for_another_query_is_not_taken_and_the_count_waits_for_its_own() -> None:
    steps, finder = FindSteps(), Finder()
    assert not steps.accept(finder.search_texts(TEXTS, "kel", ("MEMORY.md", 0)), "kelp")
    assert steps.outcome is None and steps.words("kelp") == "" and steps.step("kelp", 1) is None
    assert steps.accept(finder.search_texts(TEXTS, "kelp", ("MEMORY.md", 0)), "kelp")
    assert steps.words("kelp") == "1 of 2" and steps.words("kelpx") == ""
    assert steps.near(("MEMORY.md", 99)) == ("MEMORY.md", 2)


def test_steps_go_forward_and_back_wrapping_round_and_say_their_number() -> None:
    steps = FindSteps()
    steps.accept(Finder().search_texts(TEXTS, "kelp", ("MEMORY.md", 5)), "kelp")
    assert steps.hit is not None and (steps.hit.line, steps.words("kelp")) == (2, "2 of 2")
    hit = steps.step("kelp", 1)
    assert hit is not None and (hit.line, steps.words("kelp")) == (0, "1 of 2")
    hit = steps.step("kelp", -1)
    assert hit is not None and (hit.line, steps.words("kelp")) == (2, "2 of 2")
    assert steps.step("tide", 1) is None  # the bar holds another query now: nothing to step
    steps.clear()
    assert steps.near(("MEMORY.md", 7)) == ("MEMORY.md", 7) and steps.query() is None


def test_the_match_shown_is_always_the_outcomes_so_forgetting_the_outcome_forgets_the_match() -> None:
    steps = FindSteps()
    steps.accept(Finder().search_texts(TEXTS, "kelp", ("MEMORY.md", 0)), "kelp")
    steps.step("kelp", 1)
    assert (
        steps.outcome is not None and steps.hit == steps.outcome.hit and steps.hit is not None and steps.hit.line == 2
    )
    steps.outcome = None  # one piece of state: nothing else can keep a match the count no longer has
    assert steps.hit is None and steps.near(("MEMORY.md", 7)) == ("MEMORY.md", 7)
