"""lab_ui.server.jobs: which runs are long, and the slots' waiting sentence, pinned exactly (details mutation
testing found loose: docs/quality.md)."""




def test_waiting_sentence_names_the_place_and_the_runs():
    from lab_ui.server.jobs import _waiting_text

    assert _waiting_text(1, 1) == ("The server is busy with 1 long run from other students. Your run waits "
                                   "for a free slot (you are next); it starts by itself.")
    assert _waiting_text(3, 2) == ("The server is busy with 2 long runs from other students. Your run waits "
                                   "for a free slot (2 ahead of you); it starts by itself.")


def test_a_long_run_is_one_the_budget_expects_to_take_over_half_a_second(monkeypatch):
    from core import budget
    from lab_ui.server import jobs

    monkeypatch.setattr(budget, "seconds", lambda work: work)
    assert jobs.is_long(0.51) and not jobs.is_long(0.5) and not jobs.is_long(0.2)
