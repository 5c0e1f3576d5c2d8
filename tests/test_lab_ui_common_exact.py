"""lab_ui.widgets.common: a vector shown as a frame with fixed decimals, pinned exactly (details mutation
testing found loose: docs/quality.md)."""




def test_vector_frame_and_fixed_decimals():
    import pandas as pd

    from lab_ui.widgets.common import fixed_decimals, plain, vector_frame

    f = vector_frame([1.5, -2.0, 0.25])
    assert list(f.columns) == ["dim 0", "dim 1", "dim 2"] and list(f.index) == ["value"]
    assert f.loc["value"].tolist() == [1.5, -2.0, 0.25]
    g = vector_frame([3, 4], name="cat", prefix="d")
    assert list(g.columns) == ["d 0", "d 1"] and list(g.index) == ["cat"]
    conf = fixed_decimals(pd.DataFrame({"word": ["a"], "x": [0.5], "n": [3], "y": [1.25]}), 3)
    assert sorted(conf) == ["x", "y"] and all(c["type_config"]["format"] == "%.3f" for c in conf.values())
    assert plain("a\x00b\x7fc") == "a\ufffdb\ufffdc"
    assert plain("go to www.x.org now") == "go to ` www.x.org ` now"
    assert plain("``a`b``@c") == "``` ``a`b``@c ```"
    assert plain("1+1=2 (ok)!") == "1\\+1\\=2 \\(ok\\)\\!"
