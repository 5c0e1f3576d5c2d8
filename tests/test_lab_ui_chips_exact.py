"""lab_ui.widgets.chips: the chips' HTML escaped, marked and coloured in order, pinned exactly (details
mutation testing found loose: docs/quality.md)."""




def test_chips_html_escapes_marks_repeats_and_colours_in_order():
    from collections import namedtuple

    from lab_ui.widgets import chips

    Tok = namedtuple("Tok", "id text")
    html = chips.chips_html([Tok(5, "a<b"), Tok(7, " x\n\t\r"), Tok(5, "a<b")])
    assert html == chips.CSS + (
        '<div class="chips">'
        '<span class="chip repeat" style="background:#77AADD" title="id 5">a&lt;b<span class="id">5</span></span>'
        '<span class="chip" style="background:#EE8866" title="id 7">·x↵→␍<span class="id">7</span></span>'
        '<span class="chip repeat" style="background:#77AADD" title="id 5">a&lt;b<span class="id">5</span></span>'
        '</div>')
    colours = chips.colours_for([9, 3, 9, *range(100, 112)])
    assert list(colours) == [9, 3, *range(100, 112)]
    assert [colours[i] for i in (9, 3, 100, 109, 110, 111)] == [
        "#77AADD", "#EE8866", "#44BB99", "#CCDDAA", "#77AADD", "#EE8866"]     # the 13th wraps round
