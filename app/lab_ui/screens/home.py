"""The start screen: what the app shows, the screens in lesson order, and how to use it in class."""
import streamlit as st

WELCOME = """
A language model never sees words. Its tokenizer turns text into whole numbers (token ids),
and the very first thing the model does is swap each id for a list of numbers: a **vector**,
one row of a big table called the **embedding table**. This app lets you look inside that
step, change it, and watch a tiny model learn its own table from a short text.
"""

SCREENS = """
| Screen | The idea |
|---|---|
| **1. Lookup** | Picking row *i* of the table is the same as multiplying a one-hot vector by the table. Real code just picks the row. |
| **2. Similarity** | Cosine similarity compares directions. One-hot vectors are all at right angles, so they cannot say "cat is like dog". |
| **3. Train** | A small skip-gram model learns a table from 33 words. Move the sliders for width, learning rate and window, and watch the heatmap and the map change. *Find a word* rings it and its nearest words on the maps and frames it in the heatmaps. |
| **3b. One pair, step by step** | Follow one (centre, context) pair through the model with the real numbers: row, scores, chances, loss, gradients, and the update that moves one row of E and every column of W. E · W is one V x V table whose rank is at most d_model. |
| **3c. CBOW next to skip-gram** | word2vec's other architecture: guess a word from the average of its neighbours. Both models train on the same 33 words with the same settings; their losses (each with its own floor), training times and nearest words side by side. |
| **4. Gradients** | One training step only changes the rows of the tokens that were used. |
| **5. Parameters** | How big the table is in real models, and why its share shrinks as models grow. |
| **6. Limits** | What one vector per token cannot do: word order is lost in an average. |
| **7. Tokens: bank** | GPT-2's real tokenizer: " bank" is the same id, so the same row, by the river and at the lender. |
| **8. Projections** | Pictures of a table mislead: PCA and t-SNE disagree, axes mean nothing, and a first look at context. Press Play to watch t-SNE form its clusters, iteration by iteration. *Find a word* rings it and its nearest words on every picture, and says which picture puts them far away. |
| **8b. Analogies and directions** | "king - man + woman = queen", checked: a small model learns a made-up text that carries four relations, and b - a + c is scored against two baselines. The lesson's 33 words pass the same test only as well as the baselines do. Words placed on a direction (man → woman), with whether the two sides split along it, and an odd-one-out game. |
| **9. Position** | The next step after the table: add a position vector to each row. A plain average still forgets the order; anything that looks at each vector first does not. |
| **10. Your own vectors** | Load a table from elsewhere (the Embedding Projector's vectors.tsv and metadata.tsv, which the Train screen's Export tab writes too) and use this app's views on it: nearest words, a heatmap, PCA and t-SNE with their honesty scores, the average of a sentence. |
"""

IN_CLASS = """
- **On a projector**: switch on **Presenter mode** (in the sidebar, or add `?present=1` to the
  address): larger text, labels where they fit, Previous / Next buttons instead of the
  sidebar. The layout is checked on every screen from 853 px wide (a 1280 x 800 laptop at 150 %
  zoom) to 1920 x 1080, with the sidebar open or closed. Browser zoom narrows the page: on a
  1024 x 768 projector stay at 100 %; a 1280-wide screen can go to 150 %.
- **Reading a screen**: each one starts with what to try; the controls sit above the charts
  they change, so the class sees both at once. *Back to the lesson's run* puts a screen's
  settings back, and every screen ends with a button to the next one.
- **Alone**: every chart has a *Show the numbers as a table* box under it, so you can check each
  figure of the lesson by hand.
- **Slides and handouts**: the same box has **PNG** and **SVG** buttons: the chart as a file, with
  the screen's address (and so its settings) printed under it. *Printable handout of this screen*
  in the sidebar opens the screen in one column with no navigation and every chart's numbers
  open, ready to print or save as PDF.
- **Lesson links**: every screen keeps its controls in the page address, so copying the address
  bar shares the screen exactly as you see it. *Build a lesson link* in the sidebar adds
  `hide=` for the controls the class should not touch (any element key works, e.g.
  `hide=sim_scale`); a value a screen cannot use falls back to its default, with a notice.
- **Watching it learn**: on the Train screen, the *Replay training* tab plays the table's
  snapshots from random noise to the trained result.
- Nothing is downloaded while you use the app: the GPT-2 vocabulary ships with it, so it works
  offline.
"""


def main() -> None:
    st.title("Embedding Lab")
    st.markdown(WELCOME)
    st.header("The screens, in lesson order")
    st.markdown(SCREENS)
    st.header("Using it in class")
    st.markdown(IN_CLASS)
    st.caption("Figures come from: GPT-2, Radford et al., 2019 · GPT-3, Brown et al., 2020 · "
               "word2vec, Mikolov et al., 2013.")


main()
