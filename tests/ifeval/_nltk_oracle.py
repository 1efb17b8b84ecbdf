# nltk 3.8 (Debian's python3-nltk) as an oracle: reads a JSON list of texts on stdin and prints,
# per text, [Punkt sentences, NLTKWordTokenizer tokens of the whole text, word_tokenize tokens].
# The Punkt parameters come from the gzipped JSON named by the first argument.
import gzip
import json
import sys
from collections import defaultdict

from nltk.tokenize.destructive import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

with gzip.open(sys.argv[1], "rt", encoding="utf-8") as f:
    data = json.load(f)
params = PunktParameters()
params.abbrev_types = set(data["abbrev_types"])
params.collocations = set(tuple(pair) for pair in data["collocations"])
params.sent_starters = set(data["sent_starters"])
params.ortho_context = defaultdict(int, data["ortho_context"])
punkt = PunktSentenceTokenizer(params)
treebank = NLTKWordTokenizer()
out = []
for text in json.load(sys.stdin):
    sentences = punkt.tokenize(text)
    words = [tok for s in sentences for tok in treebank.tokenize(s)]
    out.append([sentences, treebank.tokenize(text), words])
json.dump(out, sys.stdout)
