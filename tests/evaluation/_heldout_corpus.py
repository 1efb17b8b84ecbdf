#!/usr/bin/env python3
"""Held-out corpus generator for tool-call scoring (examples / generations / prompts JSONL).

    python3 tests/evaluation/_heldout_corpus.py OUTDIR --seed N --count N

Written on 2026-12-07 from docs/contract.md, docs/evaluation.md and `assay score --help` alone,
without sight of the engine's code or of its other corpora (_score_corpus.ts, _varied_corpus.ts,
tests/formats/_api_corpus.ts), so that Assay is checked and measured on data it was not tuned for
(tests/evaluation/_heldout_corpus.ts runs it). On its first run it found that the scoring kernel
gave back any run with an output written as a JSON value, about 1.5% of these outputs.

Standard library only. Deterministic for a given seed and count. Every input LINE is valid JSON
(per Python's json module); model OUTPUTS are deliberately often broken.
"""
import argparse
import hashlib
import math
import os
import random
import re
import struct
import sys
import time
import unicodedata


# ----------------------------------------------------------------------------------------------
# value model: str / True / False / None / dict / list / Num(literal) / Pairs(dup keys) / Raw(text)
# ----------------------------------------------------------------------------------------------
class Num:
    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t


class Pairs:
    """An object written with explicit (possibly duplicated) members, in this order."""
    __slots__ = ("p",)

    def __init__(self, p):
        self.p = p


class Raw:
    """Text written verbatim (for broken outputs: True, None, 0x1F, 'x', comments ...)."""
    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t


def deep_copy(v):
    t = type(v)
    if t is dict:
        return {k: deep_copy(x) for k, x in v.items()}
    if t is list:
        return [deep_copy(x) for x in v]
    if t is Pairs:
        return Pairs([(k, deep_copy(x)) for k, x in v.p])
    return v


# ----------------------------------------------------------------------------------------------
# string escaping (both for the model's JSON and for the JSONL line itself)
# ----------------------------------------------------------------------------------------------
_RE_ALL = re.compile('[\\\\"/\x00-\x1f\x7f-\U0010ffff]')
_RE_RAW = re.compile('[\\\\"/\x00-\x1f\ud800-\udfff]')
_SHORT = {'"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f'}


class Escaper:
    """mode: raw | lower | upper | mixed.  slash: escape '/' as '\\/'.  raw_ctrl: leave control
    characters raw (makes the text invalid JSON; only for model outputs).  raw_sur: leave lone
    surrogates raw (only for model text, which the JSONL layer escapes again)."""

    def __init__(self, rng, mode="raw", slash=False, short_ctrl=True, del_escape=False,
                 raw_ctrl=False, raw_sur=False):
        self.rng = rng
        self.mode = mode
        self.slash = slash
        self.short_ctrl = short_ctrl
        self.del_escape = del_escape
        self.raw_ctrl = raw_ctrl
        self.raw_sur = raw_sur
        self.rx = _RE_RAW if (mode == "raw" and not del_escape) else _RE_ALL
        self._sub = self.rx.sub

    def _u(self, cp, upper):
        return ("\\u%04X" if upper else "\\u%04x") % cp

    def _esc_cp(self, cp, how):
        if how == "raw":
            return chr(cp)
        up = how == "upper"
        if self.mode == "mixed" and self.rng.random() < 0.3:
            up = not up
        if cp >= 0x10000:
            c = cp - 0x10000
            return self._u(0xD800 + (c >> 10), up) + self._u(0xDC00 + (c & 0x3FF), up)
        return self._u(cp, up)

    def _repl(self, m):
        c = m.group(0)
        if c == '"':
            return '\\"'
        if c == '\\':
            return '\\\\'
        if c == '/':
            return '\\/' if self.slash else '/'
        cp = ord(c)
        if cp < 0x20:
            if self.raw_ctrl:
                return c
            if self.short_ctrl and c in _SHORT:
                return _SHORT[c]
            return self._u(cp, self.mode == "upper")
        if cp == 0x7F:
            return self._u(cp, self.mode == "upper") if self.del_escape else c
        if 0xD800 <= cp <= 0xDFFF:
            if self.raw_sur:
                return c
            return self._u(cp, self.mode == "upper" or (self.mode == "mixed" and self.rng.random() < 0.5))
        mode = self.mode
        if mode == "raw":
            return c
        if mode == "mixed":
            r = self.rng.random()
            how = "raw" if r < 0.4 else ("lower" if r < 0.7 else "upper")
            return self._esc_cp(cp, how)
        return self._esc_cp(cp, mode)

    def __call__(self, s):
        return self._sub(self._repl, s)


def rand_escaper(rng, allow_slash=True):
    r = rng.random()
    mode = "raw" if r < 0.55 else ("lower" if r < 0.75 else ("upper" if r < 0.87 else "mixed"))
    return Escaper(rng, mode=mode, slash=allow_slash and rng.random() < 0.12,
                   short_ctrl=rng.random() < 0.85, del_escape=rng.random() < 0.3)


# ----------------------------------------------------------------------------------------------
# serializer
# ----------------------------------------------------------------------------------------------
class Style:
    def __init__(self, rng, esc, indent=None, isep=",", ksep=":", shuffle=0.0, bools=("true", "false", "null"),
                 quote='"', empty_space=False, numf=None):
        self.rng = rng
        self.esc = esc
        self.indent = indent
        self.isep = isep
        self.ksep = ksep
        self.shuffle = shuffle
        self.bools = bools
        self.quote = quote
        self.empty_space = empty_space
        self.numf = numf


def ser(v, st, d=0):
    out = []
    _ser(v, st, d, out)
    return "".join(out)


def _qs(s, st):
    if st.quote == "'":
        return repr(s)  # Python's own quoting: 'x', or "it's"
    return '"' + st.esc(s) + '"'


def _ser(v, st, d, out):
    t = type(v)
    if t is str:
        out.append(_qs(v, st))
    elif t is Num:
        out.append(st.numf(v.t) if st.numf else v.t)
    elif v is True:
        out.append(st.bools[0])
    elif v is False:
        out.append(st.bools[1])
    elif v is None:
        out.append(st.bools[2])
    elif t is Raw:
        out.append(v.t)
    elif t is dict or t is Pairs:
        items = list(v.items()) if t is dict else list(v.p)
        if st.shuffle and len(items) > 1 and t is dict and st.rng.random() < st.shuffle:
            st.rng.shuffle(items)
        if not items:
            out.append("{ }" if st.empty_space else "{}")
            return
        if st.indent is None:
            out.append("{")
            first = True
            for k, x in items:
                if not first:
                    out.append(st.isep)
                first = False
                out.append(_qs(k, st))
                out.append(st.ksep)
                _ser(x, st, d + 1, out)
            out.append("}")
        else:
            pad = "\n" + st.indent * (d + 1)
            out.append("{")
            first = True
            for k, x in items:
                if not first:
                    out.append(",")
                first = False
                out.append(pad)
                out.append(_qs(k, st))
                out.append(st.ksep)
                _ser(x, st, d + 1, out)
            out.append("\n" + st.indent * d + "}")
    elif t is list:
        if not v:
            out.append("[ ]" if st.empty_space else "[]")
            return
        if st.indent is None:
            out.append("[")
            first = True
            for x in v:
                if not first:
                    out.append(st.isep)
                first = False
                _ser(x, st, d + 1, out)
            out.append("]")
        else:
            pad = "\n" + st.indent * (d + 1)
            out.append("[")
            first = True
            for x in v:
                if not first:
                    out.append(",")
                first = False
                out.append(pad)
                _ser(x, st, d + 1, out)
            out.append("\n" + st.indent * d + "]")
    elif t is int:
        out.append(str(v))
    elif t is float:
        out.append(repr(v))
    else:
        raise TypeError(t)


def model_style(rng, esc=None):
    """A style a model (or a logger) might write JSON in: compact, spaced, or pretty."""
    esc = esc or rand_escaper(rng)
    r = rng.random()
    if r < 0.35:
        return Style(rng, esc, None, ",", ":", shuffle=0.3)
    if r < 0.65:
        return Style(rng, esc, None, ", ", ": ", shuffle=0.3, empty_space=rng.random() < 0.1)
    if r < 0.72:
        return Style(rng, esc, None, " , ", " : ", shuffle=0.3)
    ind = rng.choice(["  ", "    ", "\t", "  ", " "])
    return Style(rng, esc, ind, ",", rng.choice([": ", ": ", ":", " : "]), shuffle=0.3)


def line_style(rng):
    """A style for one JSONL line: never a newline, maybe spaces or tabs."""
    esc = rand_escaper(rng)
    r = rng.random()
    if r < 0.5:
        return Style(rng, esc, None, ",", ":", shuffle=0.2)
    if r < 0.9:
        return Style(rng, esc, None, ", ", ": ", shuffle=0.2)
    return Style(rng, esc, None, rng.choice([",\t", " ,", ",  "]), rng.choice([":\t", " :", ": "]))


# ----------------------------------------------------------------------------------------------
# numbers
# ----------------------------------------------------------------------------------------------
SPECIAL_FLOATS = [
    "5e-324", "1.7976931348623157e308", "1e22", "0.30000000000000004", "-0.0", "1E+2", "2.50",
    "100.0", "1e-7", "1e16", "1e15", "1e-5", "0.0001", "0.00001", "4.9e-324", "4.9E-324",
    "2.2250738585072014e-308", "2.225073858507201e-308", "1.0e+0", "-1.5E-10", "0.1", "0.5",
    "3.141592653589793238462643383279502884", "1e21", "1.5e300", "-2.5e-300", "1e308", "6.02214076e23",
    "6.62607015E-34", "-273.15", "0.0", "1.0", "-1.0", "9007199254740993.0", "123456789012345678.0",
    "1e+16", "12345678901234567890.5", "0.1e1", "10e-1", "1E0", "-0E0", "0e10", "0.000", "99.990",
    "1.7976931348623157e+308", "1.7976931348623158e308", "2.4e-320", "1e-400", "-1e-400",
]
RARE_FLOATS = ["1E400", "-1e400", "1e99999"]
SPECIAL_INTS = [
    "0", "-0", "1", "-1", "42", "9007199254740993", "9007199254740992", "18446744073709551616",
    "-9223372036854775809", "2147483648", "4294967295", "100", "1000000", "123456789012345678901234567890",
    "-170141183460469231731687303715884105728", "340282366920938463463374607431768211457",
]


def add_zeros(t, k):
    low = t.lower()
    if "e" in low:
        i = low.index("e")
        mant, ex = t[:i], t[i:]
        if "." not in mant:
            mant += "."
        return mant + "0" * k + ex
    if "." not in t:
        t += "."
    return t + "0" * k


def rand_double(rng):
    while True:
        r = rng.random()
        if r < 0.3:
            x = rng.uniform(-1000, 1000)
        elif r < 0.45:
            x = rng.random()
        elif r < 0.85:
            x = float("%se%d" % (repr(rng.uniform(1, 10)), rng.randint(-330, 310)))
            if rng.random() < 0.5:
                x = -x
        else:
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if math.isfinite(x):
            return x


def float_text(rng, x):
    r = rng.random()
    if r < 0.45:
        t = repr(x)
    elif r < 0.65:
        t = "%.17g" % x
    elif r < 0.75:
        t = add_zeros(repr(x), rng.randint(1, 4))
    elif r < 0.82:
        t = ("%.17e" if rng.random() < 0.5 else "%.17E") % x
    elif r < 0.88:
        t = repr(x).replace("e", "E")
    elif r < 0.93 and abs(x) < 1e17:
        t = "%.*f" % (rng.randint(1, 20), x)
    else:
        t = repr(x)
        if "e-" not in t and "e+" in t and rng.random() < 0.5:
            t = t.replace("e+", "e")
    return t


def rand_bigint(rng):
    n = rng.randint(20, 40)
    s = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(n - 1))
    return ("-" + s) if rng.random() < 0.3 else s


def rand_number(rng):
    r = rng.random()
    if r < 0.18:
        return Num(rng.choice(SPECIAL_FLOATS))
    if r < 0.19:
        return Num(rng.choice(RARE_FLOATS))
    if r < 0.50:
        return Num(float_text(rng, rand_double(rng)))
    if r < 0.60:
        return Num(rand_bigint(rng))
    if r < 0.66:
        return Num(rng.choice(SPECIAL_INTS))
    if r < 0.80:
        return Num(str(rng.randint(-1000, 100000)))
    if r < 0.9:
        return Num("%d.%02d" % (rng.randint(0, 999), rng.randint(0, 99)))
    return Num(str(rng.randint(0, 100)) + rng.choice([".0", ".00", ".5", ".25", ".50"]))


def is_float_lit(t):
    return any(c in t for c in ".eE")


def respell_number(t, rng, keep_type=True):
    """Another literal; keep_type -> same canonical value (usually), else a type change."""
    if is_float_lit(t):
        try:
            v = float(t)
        except ValueError:
            return t
        if not math.isfinite(v):
            return rng.choice([t, ("-" if v < 0 else "") + "1e999", ("-" if v < 0 else "") + "1E+400"])
        if keep_type:
            opts = [repr(v), "%.17e" % v, "%.17E" % v, add_zeros(repr(v), rng.randint(1, 3)),
                    repr(v).upper()]
            return rng.choice(opts)
        g = "%.17g" % v
        if not is_float_lit(g):
            return g  # 100.0 -> 100
        return repr(v) + "1" if "e" not in repr(v) else repr(v)
    # integer literal
    if keep_type:
        if t in ("0", "-0"):
            return "-0" if t == "0" else "0"
        return t
    return rng.choice([t + ".0", t + "e0", t + ".00", t + "E0"])


# ----------------------------------------------------------------------------------------------
# strings, keys, ids
# ----------------------------------------------------------------------------------------------
WORDS = ["Paris", "Oslo", "São Paulo", "Zürich", "Kraków", "Reykjavík", "東京", "北京市朝阳区", "서울", "Москва",
         "القاهرة", "तेल अवीव", "İstanbul", "Đà Nẵng", "Ålesund", "Nuuk", "Tromsø", "México D.F.", "Ciudad de México",
         "Αθήνα", "ירושלים", "กรุงเทพมหานคร", "Addis Ababa", "Łódź", "Bogotá", "Québec", "München", "Kyiv",
         "celsius", "fahrenheit", "kelvin", "metric", "imperial", "asc", "desc", "pending", "ACTIVE", "draft"]
TEXTS = [
    "hello world", "Hello, World!", "naïve café", "nai\u0308ve cafe\u0301", "straße", "ǅemal",
    "こんにちは世界", "你好，世界", "안녕하세요", "Привет, мир", "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया",
    "สวัสดีชาวโลก", "😀", "👩\u200d💻 at work", "🇫🇷🇯🇵", "👍🏽", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𠜎𠜱𠝹", "🧪 test 🧬",
    "tab\there", "line1\nline2", "crlf\r\nend", "quote \" inside", "back\\slash", "a/b/c", "</script>",
    "C:\\Users\\李\\Documents\\報告.docx", "/var/log/app.log", "https://example.com/a?b=1&c=%20x#frag",
    "{\"not\": \"parsed\"}", "}{][", "[1, 2, 3]", "}", "\"", "'", "", " ", "  leading and trailing  ",
    "zero\u200bwidth", "rtl\u200fmark", "bom\ufeffinside", "ls\u2028ps\u2029", "pua\ue000\uf8ff", "nonchar\uffff",
    "repl\ufffd", "del\x7fchar", "ctrl\x01\x1f", "nul\x00byte", "e\u0301\u0301\u0301", "Z\u0351\u0354\u0317a\u0300l\u0327go",
    "ﬁ ligature", "ｆｕｌｌｗｉｄｔｈ", "Ω≈ç√∫", "¡¿", "€100", "¥500", "₹1,200", "½ cup", "x²+y²", "«quoted»",
    "2024-02-29T23:59:60Z", "1.0", "1", "true", "null", "NaN", "0x1F", "1e5",
]
LONG_TEXT = [
    "Please summarise the quarterly report and highlight anomalies in the APAC region.",
    "Le rapport trimestriel montre une hausse de 12,5 % — voir l’annexe B.",
    "会議は明日の午前10時から第3会議室で行います。資料を準備してください。",
    "Встреча переносится на пятницу; пожалуйста, подтвердите участие.",
    "يرجى إرسال الفاتورة قبل نهاية الشهر مع ذكر رقم الطلب.",
    "Ship 3× 🍕 and 2× 🥤 to the office; ring the bell twice 🔔🔔.",
]
KEYS = ["city", "units", "query", "limit", "offset", "filters", "tags", "options", "max_price", "min_price",
        "date", "start", "end", "lat", "lon", "radius_km", "currency", "amount", "to", "from", "subject", "body",
        "lang", "verbose", "retries", "timeout_s", "threshold", "weights", "matrix", "metadata", "config",
        "日付", "城市", "место", "المدينة", "नाम", "😀", "\ue000", "𝔨𝔢𝔶", "a.b", "", "[0]", "key with space",
        "naïve", "nai\u0308ve", "Ключ", "$ref", "@type", "__proto__", "constructor", "0", "-1", "x/y", "a\\b",
        "tab\tkey", "new\nline", "q\"uote", "ÿ", "\uffff", "\U0010ffff", "🇺🇳", "ﬁ", "Z"]
ENUMS = ["celsius", "fahrenheit", "kelvin", "asc", "desc", "economy", "business", "first", "low", "high", "auto"]


def rand_text(rng):
    r = rng.random()
    if r < 0.45:
        return rng.choice(TEXTS)
    if r < 0.7:
        return rng.choice(WORDS)
    if r < 0.8:
        return rng.choice(LONG_TEXT)
    if r < 0.9:
        return rng.choice(WORDS) + rng.choice([" ", "/", "\\", "\t", "\n", " — ", ", "]) + rng.choice(TEXTS)
    if r < 0.995:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 _-") for _ in range(rng.randint(1, 24)))
    return rng.choice(["\ud83d", "\ude00", "lone\udbff", "x\udc00y"])  # lone surrogates (escaped in files)


def rand_uuid(rng, upper=False):
    b = rng.getrandbits(128)
    h = "%032x" % b
    h = h[:12] + "4" + h[13:16] + "89ab"[int(h[16], 16) & 3] + h[17:]
    s = "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])
    return s.upper() if upper else s


def rand_id(rng, i, lang):
    r = rng.random()
    if r < 0.25:
        return rand_uuid(rng)
    if r < 0.3:
        return rand_uuid(rng, True)
    if r < 0.32:
        return "{" + rand_uuid(rng) + "}"
    if r < 0.45:
        return "%s-%05d" % (lang, i)
    if r < 0.52:
        return "data/%s/%s/%d.json" % (rng.choice(["test", "dev", "held out"]), lang, i)
    if r < 0.57:
        return "C:\\corpus\\%s\\ex %d" % (lang, i)
    if r < 0.6:
        return 'ex "quoted" #%d' % i
    if r < 0.63:
        return "it's-%d" % i
    if r < 0.67:
        return rng.choice(["例", "пример", "مثال", "उदाहरण", "예시", "παράδειγμα"]) + "-%d" % i
    if r < 0.7:
        return str(i)
    if r < 0.72:
        return "%08d" % i
    if r < 0.74:
        return "  spaced %d " % i
    if r < 0.76:
        return rng.choice(["🧪", "🦀", "👩\u200d🔬", "🇧🇷"]) + str(i)
    if r < 0.78:
        return unicodedata.normalize(rng.choice(["NFC", "NFD"]), "café-%d" % i)
    if r < 0.79:
        return "ex\t%d" % i
    if r < 0.8:
        return "line\nbreak %d" % i
    if r < 0.85:
        return "%040x" % rng.getrandbits(160)
    if r < 0.88:
        return "https://hub.example.org/datasets/tc?row=%d&split=test" % i
    if r < 0.9:
        return "%s::%s::%d" % (lang, rng.choice(["A", "a"]), i)
    if r < 0.91:
        return "\\\\server\\share\\%d" % i
    if r < 0.92:
        return "%d\u00a0nbsp" % i
    return "row_%d_%s" % (i, rng.choice(["x", "y", "Ω", "z"]))


LANGS = [("en", 30), ("fr", 8), ("de", 7), ("es", 6), ("ja", 6), ("zh", 6), ("ar", 4), ("ru", 4), ("hi", 3),
         ("pt-BR", 3), ("ko", 3), ("sw", 2), ("tr", 2), ("en-US", 2), ("zh-Hant-TW", 2), ("EN", 1),
         ("Overall", 0.3), ("ｊａ", 0.3), ("𐌰𐌱", 0.3), ("\ue000pua", 0.2), ("yo ", 0.2), ("é", 0.2),
         ("e\u0301", 0.2), ("Ελληνικά", 0.5), ("עברית", 0.5), ("overall_en", 0.2)]
_LANG_NAMES = [l for l, _ in LANGS]
_LANG_CUM = []
_acc = 0
for _, w in LANGS:
    _acc += w
    _LANG_CUM.append(_acc)


def rand_lang(rng):
    return rng.choices(_LANG_NAMES, cum_weights=_LANG_CUM)[0]


# ----------------------------------------------------------------------------------------------
# gold arguments
# ----------------------------------------------------------------------------------------------
TOOLS = [
    ("get_weather", [("city", "city"), ("units", "enum"), ("days", "int")]),
    ("book_flight", [("from", "city"), ("to", "city"), ("date", "date"), ("passengers", "list_obj"),
                     ("max_price", "float"), ("cabin", "enum")]),
    ("search_hotels", [("city", "city"), ("filters", "obj"), ("options", "empty_obj")]),
    ("transfer_funds", [("amount", "float"), ("currency", "enum"), ("to_account", "bigint"), ("memo", "text")]),
    ("create_event", [("title", "text"), ("start", "date"), ("end", "date"), ("attendees", "list_str"),
                      ("reminders", "list_num"), ("all_day", "bool")]),
    ("translate_text", [("text", "text"), ("source_lang", "enum"), ("target_lang", "enum")]),
    ("query_db", [("sql", "text"), ("params", "mixed_list"), ("timeout_s", "float"), ("dry_run", "bool")]),
    ("set_thermostat", [("temperature", "extreme"), ("zone", "text"), ("hold", "null")]),
    ("send_message", [("to", "list_str"), ("subject", "text"), ("body", "text"), ("attachments", "empty_list")]),
    ("lookup_stock", [("ticker", "text"), ("from", "date"), ("fields", "list_str")]),
    ("compute_trajectory", [("mass_kg", "extreme"), ("velocity", "list_num"), ("g", "float"),
                            ("steps", "bigint"), ("tolerance", "extreme")]),
    ("resize_image", [("path", "path"), ("width", "int"), ("height", "int"), ("keep_aspect", "bool")]),
    ("get_time", []),
    ("noop", []),
    ("récupérer_météo", [("ville", "city"), ("unités", "enum")]),
    ("查询订单", [("订单号", "bigint"), ("用户", "text"), ("选项", "obj")]),
    ("weather.v2.get", [("location", "obj"), ("units", "enum")]),
    ("Fn-With-Dash", [("x", "float"), ("y", "float")]),
    ("list_files", [("path", "path"), ("recursive", "bool"), ("glob", "text")]),
    ("geo_nearby", [("lat", "float"), ("lon", "float"), ("radius_km", "float"), ("kinds", "list_str")]),
    ("measure_particle", [("charge_C", "extreme"), ("mass_eV", "extreme"), ("spin", "float")]),
    ("create_invoice", [("customer", "obj"), ("lines", "list_obj"), ("total", "float"), ("notes", "null")]),
    ("ml_predict", [("features", "matrix"), ("model_id", "uuid"), ("threshold", "float")]),
    ("deep_config_update", [("config", "deep"), ("reason", "text")]),
    ("i18n_lookup", [("keys", "weird_keys"), ("locale", "enum")]),
    ("🔍search", [("q", "text"), ("k", "int")]),
    ("sort_keys_probe", [("obj", "sortprobe")]),
]
TOOL_NAMES = [t[0] for t in TOOLS]


def rand_scalar(rng):
    r = rng.random()
    if r < 0.35:
        return rand_text(rng)
    if r < 0.75:
        return rand_number(rng)
    if r < 0.87:
        return rng.random() < 0.5
    return None


def rand_value(rng, depth, maxdepth):
    r = rng.random()
    if depth >= maxdepth or r < 0.5:
        return rand_scalar(rng)
    if r < 0.75:
        n = rng.choice([0, 1, 2, 3, 4]) if rng.random() < 0.9 else 0
        return {rng.choice(KEYS) if rng.random() < 0.5 else "k%d" % j: rand_value(rng, depth + 1, maxdepth)
                for j in range(n)}
    n = rng.choice([0, 1, 2, 3, 5])
    return [rand_value(rng, depth + 1, maxdepth) for _ in range(n)]


def gen_arg(rng, kind):
    if kind == "city":
        return rng.choice(WORDS)
    if kind == "enum":
        return rng.choice(ENUMS)
    if kind == "int":
        return Num(str(rng.randint(-5, 4000)))
    if kind == "bigint":
        return Num(rand_bigint(rng)) if rng.random() < 0.7 else Num(rng.choice(SPECIAL_INTS))
    if kind == "float":
        return rand_number(rng) if rng.random() < 0.4 else Num(float_text(rng, round(rng.uniform(-500, 500), rng.randint(0, 6))))
    if kind == "extreme":
        r = rng.random()
        if r < 0.5:
            return Num(rng.choice(SPECIAL_FLOATS))
        if r < 0.52:
            return Num(rng.choice(["NaN", "Infinity", "-Infinity"]))
        return Num(float_text(rng, rand_double(rng)))
    if kind == "text":
        return rand_text(rng)
    if kind == "date":
        return "%04d-%02d-%02d" % (rng.randint(1900, 2099), rng.randint(1, 12), rng.randint(1, 28))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list_str":
        return [rand_text(rng) for _ in range(rng.randint(0, 4))]
    if kind == "list_num":
        return [rand_number(rng) for _ in range(rng.randint(0, 5))]
    if kind == "mixed_list":
        return [rand_value(rng, 0, 2) for _ in range(rng.randint(0, 5))]
    if kind == "list_obj":
        return [{"name": rand_text(rng), "age": Num(str(rng.randint(0, 99))), "seat": rng.choice(["12A", None, "3F"])}
                for _ in range(rng.randint(0, 3))]
    if kind == "obj":
        return rand_value(rng, 0, 3) if rng.random() < 0.3 else {
            "max_price": rand_number(rng), "tags": [rand_text(rng) for _ in range(rng.randint(0, 3))],
            "stars": Num(str(rng.randint(1, 5))), "nested": {"a": {"b": rand_scalar(rng)}}}
    if kind == "empty_obj":
        return {}
    if kind == "empty_list":
        return []
    if kind == "path":
        return rng.choice(["/tmp/a b/ç.png", "C:\\img\\🖼.jpg", "./rel/../x.gif", "s3://bucket/key/with/slashes",
                           "\\\\nas\\photos\\2024\\IMG_0001.HEIC", "~/Téléchargements/файл.pdf"])
    if kind == "uuid":
        return rand_uuid(rng, rng.random() < 0.2)
    if kind == "matrix":
        return [[rand_number(rng) for _ in range(rng.randint(0, 4))] for _ in range(rng.randint(0, 4))]
    if kind == "deep":
        v = rand_scalar(rng)
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.6:
                v = {rng.choice(KEYS): v, "lvl": Num(str(rng.randint(0, 9)))}
            else:
                v = [v] if rng.random() < 0.5 else [v, rand_scalar(rng)]
        return v
    if kind == "weird_keys":
        ks = rng.sample(KEYS[31:], rng.randint(1, 8))
        return {k: rand_scalar(rng) for k in ks}
    if kind == "sortprobe":
        # keys whose code-point order differs from UTF-16 order, and ASCII case/length order
        ks = ["\ue000", "😀", "\uffff", "\U00010000", "Z", "a", "aa", "a\u0000", "ｆ", "𝔣", "\ufb01", "é", "e\u0301"]
        sub = rng.sample(ks, rng.randint(2, len(ks)))
        return {k: Num(str(j)) for j, k in enumerate(sub)}
    raise ValueError(kind)


def gen_gold(rng):
    name, params = rng.choice(TOOLS)
    args = {}
    for k, kind in params:
        if rng.random() < 0.85:
            args[k] = gen_arg(rng, kind)
    if rng.random() < 0.08:
        args[rng.choice(KEYS)] = rand_value(rng, 0, 4)
    return {"name": name, "arguments": args}


# ----------------------------------------------------------------------------------------------
# modifying a call (near misses)
# ----------------------------------------------------------------------------------------------
def leaf_slots(v, acc):
    t = type(v)
    if t is dict:
        for k, x in v.items():
            if type(x) in (dict, list) and x:
                leaf_slots(x, acc)
            else:
                acc.append((v, k))
    elif t is list:
        for i, x in enumerate(v):
            if type(x) in (dict, list) and x:
                leaf_slots(x, acc)
            else:
                acc.append((v, i))
    return acc


def all_containers(v, acc):
    t = type(v)
    if t is dict:
        acc.append(v)
        for x in v.values():
            all_containers(x, acc)
    elif t is list:
        acc.append(v)
        for x in v:
            all_containers(x, acc)
    return acc


def respell_all(v, rng, p_keep, p_change):
    """Return a copy with number literals respelled."""
    t = type(v)
    if t is Num:
        r = rng.random()
        if r < p_change:
            return Num(respell_number(v.t, rng, keep_type=False))
        if r < p_change + p_keep:
            return Num(respell_number(v.t, rng, keep_type=True))
        return v
    if t is dict:
        return {k: respell_all(x, rng, p_keep, p_change) for k, x in v.items()}
    if t is list:
        return [respell_all(x, rng, p_keep, p_change) for x in v]
    return v


def mutate_leaf(rng, x):
    t = type(x)
    if t is str:
        r = rng.random()
        if r < 0.3:
            return x + rng.choice([" ", ".", "!", "s"])
        if r < 0.5:
            return unicodedata.normalize("NFD" if rng.random() < 0.5 else "NFC", x) if x else "x"
        if r < 0.7:
            return x.upper() if x.upper() != x else x + "X"
        if r < 0.85:
            return Num("1") if x else None
        return rand_text(rng) + "~"
    if t is Num:
        r = rng.random()
        if r < 0.5:
            return Num(respell_number(x.t, rng, keep_type=False))
        if r < 0.8:
            return Num(str(rng.randint(-50, 50)))
        return str(x.t)  # number as a string
    if x is True or x is False:
        return (not x) if rng.random() < 0.7 else Num("1" if x else "0")
    if x is None:
        return rng.choice(["null", "", Num("0"), {}])
    if t is dict:
        return [] if rng.random() < 0.5 else None
    if t is list:
        return {} if rng.random() < 0.5 else None
    return x


def near_miss(rng, call):
    c = deep_copy(call)
    args = c["arguments"]
    r = rng.random()
    if r < 0.15:
        c["name"] = rng.choice([c["name"].upper(), c["name"] + " ", "functions." + c["name"], rng.choice(TOOL_NAMES),
                                c["name"].replace("_", "-"), unicodedata.normalize("NFD", c["name"])])
        if c["name"] == call["name"]:
            c["name"] = call["name"] + "_v2"
        return c
    slots = leaf_slots(args, [])
    if r < 0.55 and slots:
        for _ in range(rng.randint(1, 2)):
            cont, k = rng.choice(slots)
            cont[k] = mutate_leaf(rng, cont[k])
        return c
    conts = all_containers(args, [])
    dicts = [d for d in conts if type(d) is dict and d]
    lists = [l for l in conts if type(l) is list and len(l) > 1]
    if r < 0.7 and dicts:
        d = rng.choice(dicts)
        del d[rng.choice(list(d.keys()))]
        return c
    if r < 0.8 and lists:
        l = rng.choice(lists)
        l.reverse()
        return c
    if r < 0.9:
        args[rng.choice(["extra", "verbose", "debug", "note", "日本"])] = rand_scalar(rng)
        return c
    c["arguments"] = {k.upper() if k.upper() != k else k + "_": v for k, v in args.items()} if args else {"x": None}
    return c


# ----------------------------------------------------------------------------------------------
# model outputs
# ----------------------------------------------------------------------------------------------
PROSE_BEFORE = [
    "Sure! I'll call the tool now.\n\n", "Of course. Here is the function call:\n", "Voici l’appel de fonction :\n",
    "了解しました。ツールを呼び出します。\n", "好的，我来调用工具：", "Конечно! Вызываю инструмент:\n",
    "حسنًا، سأستدعي الأداة:\n", "Let me check that for you 🙂\n\n", "Thought: the user wants data.\n",
    "I need to use a tool for this.  ", "\n\n", "   ", "\ufeff", "Answer: ", "OK -> ", "<think>\nplan: call tool\n</think>\n",
    "Calling `tool` with the user's parameters (see below):\n",
]
PROSE_AFTER = [
    "", "", "", "\n\nLet me know if you need anything else!", "\nDone.", " 🙂", "\n\n(I used the tool above.)",
    "\nNote: values are approximate {roughly}.", "\n[end]", "\n}\n", " ]]", "\nAnd then call {\"name\": \"x\"}.",
    "\n\nこれで完了です。", "\n```", "<|eot_id|>", "</s>",
]
NO_JSON_TEXTS = [
    "I'm sorry, I can't help with that.", "The weather in Rome is sunny.", "get_weather(city='Paris', units='celsius')",
    "I would call get_weather with city=Paris.", "Необходимо уточнить город.", "لا أستطيع الوصول إلى الأداة الآن.",
    "申し訳ありませんが、その情報は取得できません。", "<tool_call>get_weather</tool_call>", "Action: get_weather\nAction Input: Paris",
    "(no tool needed)", "Answer: 42", "｛\"name\": \"fullwidth braces\"｝", "🤷", "<function=get_weather>city=Paris</function>",
    "The call would be: name=get_weather; arguments=(city: Paris)",
]


def wrap_ok(rng, j, name):
    r = rng.random()
    if r < 0.25:
        return j
    if r < 0.45:
        return rng.choice(PROSE_BEFORE) + j + rng.choice(PROSE_AFTER)
    if r < 0.6:
        return rng.choice(["", "Here you go:\n"]) + "```" + rng.choice(["json", "", "JSON", "json5", "tool_call"]) + "\n" + j + "\n```" + rng.choice(["", "\n", "\nHope that helps."])
    if r < 0.7:
        return "Thought: I should use %s.\nAction: %s\nAction Input: %s" % (name, name, j)
    if r < 0.8:
        tag = rng.choice(["tool_call", "functioncall", "function_call", "call", "invoke"])
        return "<%s>%s%s%s</%s>" % (tag, rng.choice(["", "\n"]), j, rng.choice(["", "\n"]), tag)
    if r < 0.85:
        return "<|python_tag|>" + j + rng.choice(["", "<|eom_id|>"])
    if r < 0.9:
        return rng.choice(["  ", "\n\n", "\t", "\r\n"]) + j + rng.choice([" ", "\n", "\r\n", ""])
    return "**Tool call** (%s):\n\n%s\n\n_Waiting for result…_" % (name.replace("[", "("), j)


def ser_call(rng, call, st=None):
    st = st or model_style(rng)
    if rng.random() < 0.08:
        call = {"arguments": call["arguments"], "name": call["name"]}
    return ser(call, st)


def truncate(rng, s):
    if len(s) < 2:
        return s[:0] + "{"
    return s[: rng.randint(1, len(s) - 1)]


def make_output(rng, gold, gold_ok):
    """Return (output, kind). output is a str, or ('value', tree) for a JSON-valued output."""
    call = gold if gold_ok else {"name": rng.choice(TOOL_NAMES), "arguments": gen_arg(rng, "obj") if rng.random() < 0.5 else {}}
    if type(call.get("arguments")) is not dict:
        call = {"name": rng.choice(TOOL_NAMES), "arguments": {}}
    name = call["name"] if type(call.get("name")) is str else "tool"
    r = rng.random()
    # ---------------- good or nearly good (~50%) ----------------
    if r < 0.22:
        return wrap_ok(rng, ser_call(rng, call), name), "exact"
    if r < 0.28:
        c = {"name": call["name"], "arguments": respell_all(call["arguments"], rng, 0.7, 0.0)}
        return wrap_ok(rng, ser_call(rng, c), name), "respelled_same"
    if r < 0.32:
        c = {"name": call["name"], "arguments": respell_all(call["arguments"], rng, 0.3, 0.3)}
        return wrap_ok(rng, ser_call(rng, c), name), "respelled_type"
    if r < 0.43:
        return wrap_ok(rng, ser_call(rng, near_miss(rng, call)), name), "near_miss"
    if r < 0.455:
        st = model_style(rng)
        return wrap_ok(rng, "[" + ser_call(rng, call, st) + "]", name), "list_of_one"
    if r < 0.47:
        # duplicate keys: last wins
        if rng.random() < 0.5:
            p = Pairs([("name", "wrong_name"), ("arguments", {}), ("name", call["name"]), ("arguments", call["arguments"])])
            kind = "dup_last_right"
        else:
            p = Pairs([("name", call["name"]), ("arguments", call["arguments"]), ("name", call["name"] + "_shadow")])
            kind = "dup_last_wrong"
        return wrap_ok(rng, ser(p, model_style(rng)), name), kind
    if r < 0.49:
        # JSON-valued output (a logger stored the parsed object/array)
        q = rng.random()
        if q < 0.45:
            v = deep_copy(call)
        elif q < 0.6:
            v = [deep_copy(call)]
        elif q < 0.8:
            v = {"id": "chatcmpl-" + rand_uuid(rng)[:8], "object": "chat.completion", "choices": [{"index": Num("0"), "message": {
                "role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
                    "name": name, "arguments": ser(call["arguments"], Style(rng, Escaper(rng), None, ",", ":"))}}]},
                "finish_reason": "tool_calls"}], "usage": {"prompt_tokens": Num("91"), "completion_tokens": Num("17")}}
        elif q < 0.9:
            v = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": name, "input": deep_copy(call["arguments"])}],
                 "stop_reason": "tool_use"}
        else:
            v = [deep_copy(call), {"name": "second", "arguments": {}}]
        return ("value", respell_all(v, rng, 0.3, 0.05)), "json_value"
    if r < 0.50:
        # NaN / Infinity inserted (accepted by the parser)
        c = deep_copy(call)
        c["arguments"][rng.choice(["value", "score", "x"])] = Raw(rng.choice(["NaN", "Infinity", "-Infinity"]))
        return wrap_ok(rng, ser_call(rng, c), name), "nan_literal"
    # ---------------- broken (~50%) ----------------
    b = rng.random()
    j = None
    if b < 0.08:
        return truncate(rng, wrap_ok(rng, ser_call(rng, call), name)), "truncated"
    if b < 0.13:
        j = ser_call(rng, call)
        i = j.rfind("}")
        j = j[:i] + rng.choice([",", ", ", ",\n"]) + j[i:]
        return wrap_ok(rng, j, name), "trailing_comma"
    if b < 0.18:
        st = Style(rng, Escaper(rng), None, ", ", ": ", bools=("True", "False", "None"), quote="'")
        return wrap_ok(rng, ser(call, st), name), "python_repr"
    if b < 0.22:
        st = model_style(rng)
        st.bools = ("True", "False", "None")
        return wrap_ok(rng, ser_call(rng, call, st), name), "python_literals"
    if b < 0.26:
        j = ser_call(rng, call, Style(rng, Escaper(rng), "  ", ",", ": "))
        lines = j.split("\n")
        k = rng.randint(1, max(1, len(lines) - 1))
        lines.insert(k, rng.choice(["  // the tool to call", "  /* arguments follow */", "  # comment"]))
        return wrap_ok(rng, "\n".join(lines), name), "comments"
    if b < 0.30:
        j = ser_call(rng, call)
        q = rng.random()
        if q < 0.4:
            j = j[:-1]
            kind = "unbalanced_missing"
        elif q < 0.7:
            j = j + "}" * rng.randint(1, 2)
            kind = "unbalanced_extra_close"
        elif q < 0.85:
            j = "{" + j
            kind = "unbalanced_extra_open"
        else:
            j = j[:-1] + "]"
            kind = "mismatched_bracket"
        return wrap_ok(rng, j, name), kind
    if b < 0.36:
        return rng.choice(NO_JSON_TEXTS), "no_json"
    if b < 0.40:
        st = model_style(rng)
        other = {"name": rng.choice(TOOL_NAMES), "arguments": {"q": rand_text(rng)}}
        return wrap_ok(rng, "[" + st.isep.join([ser(call, st), ser(other, st)]) + "]", name), "two_calls"
    if b < 0.47:
        q = rng.random()
        a = call["arguments"]
        if q < 0.3:
            v = {"name": name, "parameters": a}
        elif q < 0.5:
            v = {"function": name, "args": a}
        elif q < 0.65:
            v = {"tool": name, "arguments": a}
        elif q < 0.8:
            v = {"name": name, "arguments": a, "id": "call_%d" % rng.randint(0, 99)}
        elif q < 0.9:
            v = {"type": "function", "function": {"name": name, "arguments": a}}
        else:
            v = {"tool_calls": [{"function": {"name": name, "arguments": a}}]}
        return wrap_ok(rng, ser(v, model_style(rng)), name), "wrong_keys"
    if b < 0.52:
        inner = ser(call["arguments"], Style(rng, Escaper(rng), None, rng.choice([",", ", "]), rng.choice([":", ": "])))
        return wrap_ok(rng, ser({"name": name, "arguments": inner}, model_style(rng)), name), "arguments_string"
    if b < 0.55:
        return "", "empty"
    if b < 0.58:
        return rng.choice([" ", "\n", "\n\n  \t", "\u3000", "\u00a0\n", "\r\n"]), "whitespace"
    if b < 0.62:
        c = deep_copy(call)
        c["arguments"]["note"] = rng.choice(["line1\nline2", "a\tb", "bell\x07", "x\x00y", "cr\rhere"])
        st = model_style(rng, Escaper(rng, raw_ctrl=True))
        return wrap_ok(rng, ser_call(rng, c, st), name), "raw_control"
    if b < 0.65:
        c = deep_copy(call)
        c["arguments"][rng.choice(["n", "count", "id"])] = Raw(rng.choice(["007", "0x1F", "+5", ".5", "5.", "1e", "-", "1_000", "0b11", "--1", "Infinity1", "nan", "inf", "-NaN"]))
        return wrap_ok(rng, ser_call(rng, c), name), "bad_number"
    if b < 0.68:
        c = deep_copy(call)
        c["arguments"]["s"] = Raw(rng.choice(['"\\x41"', '"\\u12G4"', '"\\\'"', '"\\a"', '"unterminated', '"\\ud800\\u"', '"\\U0001F600"']))
        return wrap_ok(rng, ser_call(rng, c), name), "bad_escape"
    if b < 0.70:
        j = ser_call(rng, call).replace('"', "\u201c", 1).replace('"', "\u201d")
        return wrap_ok(rng, j, name), "smart_quotes"
    if b < 0.73:
        j = ser_call(rng, call)
        return rng.choice(["Use the {city} placeholder. ", "Options: [a] or [b]. ", "Set {x} first. ", "see [1]\n",
                           'The "{" character starts JSON: ']) + j, "brace_in_prose"
    if b < 0.755:
        return "Thought: call %s\nAction: %s\nAction Input: %s" % (name, name, ser(call["arguments"], model_style(rng))), "action_input_args_only"
    if b < 0.77:
        return "[TOOL_CALLS] [" + ser_call(rng, call) + "]", "mistral_prefix"
    if b < 0.79:
        v = rng.choice([{"name": "", "arguments": call["arguments"]}, {"name": None, "arguments": {}},
                        {"name": Num("7"), "arguments": {}}, {"name": name, "arguments": None},
                        {"name": name, "arguments": [call["arguments"]]}, [], [[deep_copy(call)]], {"name": name},
                        {"arguments": call["arguments"]}, {}])
        return wrap_ok(rng, ser(v, model_style(rng)), name), "bad_shape"
    if b < 0.81:
        first = ser({"thought": rand_text(rng), "plan": ["look up", "answer"]}, model_style(rng))
        return first + "\n" + ser_call(rng, call), "json_before_call"
    if b < 0.825:
        # deep nesting around the 512 limit
        depth = rng.choice([509, 510, 511, 512, 513, 600, 1200])
        inner = "[" * (depth - 2) + "1" + "]" * (depth - 2)
        return '{"name": "%s", "arguments": {"deep": %s}}' % ("deep_probe", inner), "deep_%d" % depth
    if b < 0.835:
        n = rng.choice([4299, 4300, 4301, 5000])
        digits = "9" + "0" * (n - 1)
        lit = rng.choice([digits, "-" + digits, digits + ".5", "0." + digits, "1e" + digits[:5]])
        return '{"name": "%s", "arguments": {"big": %s}}' % (name, lit), "huge_number_%d" % n
    if b < 0.85:
        c = deep_copy(call)
        c["arguments"]["sur"] = rng.choice(["\ud83d", "\udc00x", "a\udbff\udbff"])
        raw = rng.random() < 0.3
        st = model_style(rng, Escaper(rng, mode=rng.choice(["raw", "lower", "upper"]), raw_sur=raw))
        return wrap_ok(rng, ser_call(rng, c, st), name), "lone_surrogate" + ("_raw" if raw else "")
    if b < 0.87:
        j = ser_call(rng, call, Style(rng, Escaper(rng), None, ", ", ": "))
        j = j.replace(": ", rng.choice([":\u00a0", ":\u3000", ":\u2003", ":\ufeff"]), 1)
        return wrap_ok(rng, j, name), "unicode_whitespace"
    if b < 0.89:
        j = ser_call(rng, call)
        cut = rng.randint(1, max(1, len(j) - 1))
        return j[:cut] + "<|eot_id|>", "stopped_early"
    if b < 0.91:
        # same call twice in a row (first wins), or a list of one then garbage
        j = ser_call(rng, call)
        return j + "\n" + j, "repeated_call"
    if b < 0.93:
        return ser_call(rng, call).replace("{", "{{", 1).replace("}", "}}"), "double_braces"
    if b < 0.95:
        return "<tool_call>\n" + ser_call(rng, call) + "\n<tool_call>\n" + ser_call(rng, near_miss(rng, call)), "two_tags"
    if b < 0.97:
        j = ser_call(rng, call, Style(rng, Escaper(rng), None, ",", ":"))
        j = j.replace('"', "'")
        return wrap_ok(rng, j, name), "all_single_quotes"
    # yaml-ish
    return "name: %s\narguments:\n  city: Paris\n  units: celsius" % name, "yaml"


# ----------------------------------------------------------------------------------------------
# gold targets (some dropped)
# ----------------------------------------------------------------------------------------------
def make_target(rng, gold):
    """Return (target_tree, expected_drop or None)."""
    r = rng.random()
    if r < 0.86:
        if rng.random() < 0.02 and gold["arguments"]:
            # duplicate key inside the gold arguments; last wins
            items = list(gold["arguments"].items())
            k, v = items[0]
            args = Pairs([(k, "stale-value")] + items)
            return {"name": gold["name"], "arguments": args}, None
        return gold, None
    if r < 0.90:
        return [gold], None
    if r < 0.93:
        calls = [gold] + [gen_gold(rng) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.2:
            calls = [gold, gold]
        return calls, "multiple_calls"
    if r < 0.945:
        return [], "empty_target"
    m = rng.random()
    n, a = gold["name"], gold["arguments"]
    if m < 0.15:
        t = {"name": n, "arguments": ser(a, Style(rng, Escaper(rng), None, ", ", ": "))}
    elif m < 0.25:
        t = {"name": n}
    elif m < 0.35:
        t = {"arguments": a}
    elif m < 0.42:
        t = {"name": "", "arguments": a}
    elif m < 0.5:
        t = {"name": Num("42"), "arguments": {}}
    elif m < 0.6:
        t = {"name": n, "arguments": a, "id": "call_0"}
    elif m < 0.68:
        t = {"name": n, "arguments": None}
    elif m < 0.74:
        t = {"name": n, "arguments": [Num("1"), Num("2")]}
    elif m < 0.82:
        t = [gold, "oops"]
    elif m < 0.88:
        t = [{"name": n, "parameters": a}]
    elif m < 0.93:
        t = [[gold]]
    else:
        t = {"type": "function", "function": {"name": n, "arguments": a}}
    return t, "malformed_target"


# ----------------------------------------------------------------------------------------------
# prompts
# ----------------------------------------------------------------------------------------------
SYSTEMS = [
    "You are a helpful assistant with access to tools. Reply with exactly one JSON tool call.",
    "Tu es un assistant. Réponds uniquement par un appel d’outil au format JSON.",
    "あなたはツールを使えるアシスタントです。JSON形式で1つだけツールを呼び出してください。",
    "Ты — ассистент с доступом к инструментам. Ответь одним вызовом в JSON.",
    "أنت مساعد لديه أدوات. أجب باستدعاء أداة واحد بصيغة JSON.",
    "Du bist ein Assistent.\tAntworte mit genau einem Tool-Aufruf.",
    "<<SYS>>\nYou may call functions.\n<</SYS>>",
]
_SUR = re.compile("[\ud800-\udfff]")
QUESTIONS = {
    "en": "Could you {verb} for {a}?", "fr": "Peux-tu {verb} pour {a} ?", "de": "Kannst du {verb} für {a}?",
    "es": "¿Puedes {verb} para {a}?", "ja": "{a}について{verb}してください。", "zh": "请为{a}{verb}。",
    "ar": "هل يمكنك {verb} لـ {a}؟", "ru": "Можешь {verb} для {a}?", "hi": "क्या आप {a} के लिए {verb} कर सकते हैं?",
    "ko": "{a}에 대해 {verb} 해 주세요.",
}


def make_prompt(rng, lang, gold, ex_id):
    name = gold["name"] if type(gold.get("name")) is str else "tool"
    args = gold.get("arguments")
    a = "?"
    if type(args) is dict and args:
        v = next(iter(args.values()))
        a = v if type(v) is str else (v.t if type(v) is Num else "the given values")
    q = QUESTIONS.get(lang[:2].lower(), QUESTIONS["en"]).format(verb=name.replace("_", " "), a=a)
    sig = "%s(%s)" % (name, ", ".join(args.keys()) if type(args) is dict else "")
    parts = [rng.choice(SYSTEMS), "", "Tools:", "- " + sig]
    if rng.random() < 0.3:
        parts.append("- " + rng.choice(TOOL_NAMES) + "(...)")
    parts += ["", "User: " + q]
    if rng.random() < 0.2:
        parts.append(rng.choice(["Merci 🙏", "ありがとう！", "(urgent!!)", "  ", "\u200b", "P.S. use \\\"metric\\\" units"]))
    parts.append("Assistant:")
    sep = "\r\n" if rng.random() < 0.1 else "\n"
    text = _SUR.sub("\ufffd", sep.join(parts))
    if rng.random() < 0.01:
        text += "\x00"
    return text


# ----------------------------------------------------------------------------------------------
# JSONL lines
# ----------------------------------------------------------------------------------------------
def line_obj(rng, pairs, st):
    """pairs: list of (key, value, kind) where kind 'v' = value tree, 'raw' = preformatted JSON text."""
    out = ["{"]
    first = True
    for k, v, kind in pairs:
        if not first:
            out.append(st.isep)
        first = False
        out.append('"' + st.esc(k) + '"' + st.ksep)
        if kind == "raw":
            out.append(v)
        else:
            out.append(ser(v, st))
    out.append("}")
    return "".join(out)


MODELS = ["llama-3.1-8b-instruct+lora-r16", "qwen2.5-7b", "mistral-7b-v0.3", "gpt-4o-2024-08-06", "base", "adapter/ckpt-1200"]


def build(seed, count):
    rng = random.Random(seed)
    ex_lines, gen_lines, pr_lines = [], [], []
    ids = set()
    en_ids = []
    prev_prompts = []
    stats = {}
    for i in range(count):
        lang = rand_lang(rng)
        ex_id = rand_id(rng, i, lang)
        while ex_id in ids:
            ex_id = ex_id + "#" + str(rng.randint(0, 9))
        ids.add(ex_id)
        gold = gen_gold(rng)
        target, drop = make_target(rng, gold)

        # ---- examples line
        st = line_style(rng)
        fields = [("example_id", ex_id, "v"), ("language", lang, "v"), ("target", target, "v")]
        rr = rng.random()
        if lang not in ("en",) and en_ids and rr < 0.55:
            fields.append(("root_id", rng.choice(en_ids), "v"))
        elif rr < 0.7:
            fields.append(("root_id", None, "v"))
        elif rr < 0.72:
            fields.append(("root_id", "missing-root-" + str(i), "v"))
        if rng.random() < 0.6:
            fields.append(("meta", {"source": rng.choice(["synthetic", "human", "translated", "红队"]),
                                    "difficulty": rand_number(rng), "created": "2024-%02d-%02dT%02d:00:00Z" % (
                                        rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23)),
                                    "tags": [rand_text(rng) for _ in range(rng.randint(0, 3))]}, "v"))
        if rng.random() < 0.2:
            fields.append(("notes", rand_text(rng), "v"))
        if rng.random() < 0.1:
            fields.append(("tools", [{"name": n, "description": "…"} for n in rng.sample(TOOL_NAMES, 2)], "v"))
        if rng.random() < 0.05:
            fields.append(("reference_output", ser(gold, Style(rng, Escaper(rng), None, ", ", ": ")), "v"))
        rng.shuffle(fields)
        if rng.random() < 0.01:
            fields.append(("meta", {"dup": True}, "v"))  # duplicate key at line level (last wins)
        ex_lines.append(line_obj(rng, fields, st))
        if lang == "en":
            en_ids.append(ex_id)

        # ---- prompt
        if prev_prompts and rng.random() < 0.02:
            prompt = rng.choice(prev_prompts)
        else:
            prompt = make_prompt(rng, lang, gold, ex_id)
            if len(prev_prompts) < 1000:
                prev_prompts.append(prompt)
        digest = hashlib.sha256(prompt.encode("utf-8")).hexdigest()
        st = line_style(rng)
        pf = [("example_id", ex_id, "v"), ("prompt_sha256", digest, "v")]
        if rng.random() < 0.85:
            pf.append(("prompt", prompt, "v"))
        if rng.random() < 0.3:
            pf.append(("template", rng.choice(["chatml", "llama3", "alpaca", "ツール-v2"]), "v"))
        if rng.random() < 0.3:
            pf.append(("n_tokens", Num(str(rng.randint(20, 4000))), "v"))
        rng.shuffle(pf)
        pr_lines.append(line_obj(rng, pf, st))

        # ---- generation
        gold_ok = type(gold) is dict and type(gold.get("name")) is str and type(gold.get("arguments")) is dict
        out, kind = make_output(rng, gold, gold_ok)
        stats[kind] = stats.get(kind, 0) + 1
        st = line_style(rng)
        if type(out) is tuple:
            out_field = ("output", out[1], "v")
        else:
            out_field = ("output", out, "v")
        gf = [("example_id", ex_id, "v"), ("prompt_sha256", digest, "v"), out_field]
        gf.append(("gen_kind", kind, "v"))  # what the generator meant (ignored by scorers)
        if rng.random() < 0.5:
            gf.append(("model", rng.choice(MODELS), "v"))
        if rng.random() < 0.4:
            gf.append(("latency_ms", rand_number(rng), "v"))
        if rng.random() < 0.3:
            gf.append(("sampling", {"temperature": Num(rng.choice(["0", "0.0", "0.7", "1.0", "1e-3"])),
                                    "top_p": Num(rng.choice(["1", "0.95", "1.00"])), "seed": Num(str(rng.randint(0, 2**31)))}, "v"))
        if rng.random() < 0.2:
            gf.append(("finish_reason", rng.choice(["stop", "length", "tool_calls", None]), "v"))
        if rng.random() < 0.05:
            gf.append(("usage", {"prompt_tokens": Num(str(rng.randint(1, 9999))), "completion_tokens": Num(str(rng.randint(0, 999)))}, "v"))
        rng.shuffle(gf)
        if rng.random() < 0.003:
            # the output key twice: a stale empty output first, the real one last (last wins)
            gf.insert(0, ("output", rng.choice(["", "{\"name\": \"stale\", \"arguments\": {}}", "partial {"]), "v"))
        gen_lines.append(line_obj(rng, gf, st))

    rng.shuffle(gen_lines)
    rng.shuffle(pr_lines)
    return ex_lines, gen_lines, pr_lines, stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--stats", action="store_true", help="print the output-kind counts too")
    a = ap.parse_args()
    t0 = time.time()
    ex, gen, pr, stats = build(a.seed, a.count)
    os.makedirs(a.outdir, exist_ok=True)
    for fname, lines in (("examples.jsonl", ex), ("generations.jsonl", gen), ("prompts.jsonl", pr)):
        path = os.path.join(a.outdir, fname)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(lines))
            f.write("\n")
        print("%-18s %10d bytes  %7d lines" % (fname, os.path.getsize(path), len(lines)))
    print("elapsed %.1fs" % (time.time() - t0), file=sys.stderr)
    if a.stats:
        for k in sorted(stats, key=lambda k: -stats[k]):
            print("  %-26s %d" % (k, stats[k]))


if __name__ == "__main__":
    main()
