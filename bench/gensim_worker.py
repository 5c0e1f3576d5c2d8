"""Runs inside the gensim virtual environment (gensim 4.3.3, numpy < 2); stdlib + gensim only.

Called by ``bench.word2vec`` as ``.venv-gensim/bin/python bench/gensim_worker.py JOB.json``.
``{"what": "data", "out": DIR}`` writes the Lee corpus (gensim's own tokenisation,
``simple_preprocess`` per line, as gensim's word2vec tutorial does) to DIR/lee.json and
copies the path of wordsim353.tsv. ``{"what": "train", ...}`` trains one Word2Vec with
one worker and saves the vectors, the vocabulary and the seconds.
"""
import json
import os
import sys
import time


def main(job_path):
    with open(job_path) as f:
        job = json.load(f)
    from gensim.test.utils import datapath
    if job["what"] == "data":
        from gensim.utils import simple_preprocess
        with open(datapath("lee_background.cor"), encoding="utf8") as f:
            sentences = [simple_preprocess(line) for line in f]
        with open(os.path.join(job["out"], "lee.json"), "w") as f:
            json.dump({"sentences": sentences, "wordsim": datapath("wordsim353.tsv")}, f)
        return
    import numpy as np
    from gensim.models import Word2Vec
    with open(job["sentences"]) as f:
        sentences = json.load(f)["sentences"]
    start, cpu = time.perf_counter(), time.process_time()
    model = Word2Vec(sentences, sg=1, hs=0, vector_size=job["d_model"], window=job["window"],
                     negative=job["negative"], min_count=job["min_count"], sample=job["sample"],
                     epochs=job["epochs"], workers=1, seed=job["seed"])
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    np.save(job["out"] + ".npy", model.wv.vectors)
    with open(job["out"] + ".json", "w") as f:
        json.dump({"vocab": list(model.wv.index_to_key), "seconds": seconds, "cpu": cpu}, f)


if __name__ == "__main__":
    main(sys.argv[1])
