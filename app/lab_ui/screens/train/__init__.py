"""The Train screen: its script (``train.py``), its controls, its result, its tabs' views,
and the big-text panel."""
