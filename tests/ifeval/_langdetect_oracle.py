# Python oracles from Debian's packages: langdetect 1.0.9 with DetectorFactory.seed = 0, and
# CPython's random.Random. Reads a JSON request on stdin:
#   {"detect": [texts]} -> per text [language, [[lang, prob], ...]] or ["!error", message]
#   {"random": [seeds], "draws": n, "below": [n, ...]} -> per seed its random(), gauss() and
#   _randbelow() draws
import json
import random
import sys

import os

import langdetect
from langdetect import DetectorFactory, detector_factory
from langdetect.lang_detect_exception import LangDetectException

DetectorFactory.seed = 0
request = json.load(sys.stdin)
if request.get("sorted_profiles"):
    # Profiles in file-name order, as the TS port loads them (upstream takes os.listdir's order,
    # which only changes the order of floating-point sums).
    factory = DetectorFactory()
    profiles = detector_factory.PROFILES_DIRECTORY
    texts = []
    for name in sorted(os.listdir(profiles)):
        with open(os.path.join(profiles, name), encoding="utf-8") as f:
            texts.append(f.read())
    factory.load_json_profile(texts)
    detector_factory._factory = factory
out = {}
if "detect" in request:
    rows = []
    for text in request["detect"]:
        try:
            probs = [[l.lang, l.prob] for l in langdetect.detect_langs(text)]
            rows.append([langdetect.detect(text), probs])
        except LangDetectException as e:
            rows.append(["!error", str(e)])
    out["detect"] = rows
if "random" in request:
    rows = []
    for seed in request["random"]:
        r = random.Random(seed)
        floats = [r.random() for _ in range(request["draws"])]
        gauss = [r.gauss(0.0, 1.0) for _ in range(request["draws"])]
        below = [r._randbelow(n) for n in request["below"]]
        rows.append([floats, gauss, below])
    out["random"] = rows
json.dump(out, sys.stdout)
