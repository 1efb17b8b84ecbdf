#!/usr/bin/env python3
"""An independent oracle for the decoders of API shapes and tool-call texts: openai-chat@3,
openai-responses@3, anthropic@4, hermes@2, llama3@1, mistral@1 and json-list@3.

Written from docs/formats.md (the sections of the seven decoders, and the rules above them) in plain
Python with the standard library. It shares no code with src/formats/.

Input (stdin): one JSON object per line, {"format": NAME, "output": TEXT}.
Output (stdout): one JSON object per line, {"status": STATUS, "calls": [[NAME, ARGUMENTS], ...]},
where ARGUMENTS is the canonical text of the call's arguments (docs/contract.md section 2:
json.dumps with sort_keys, compact separators and ensure_ascii). A failure has no calls. The reasons
are Assay's own wording and are not compared.

Readings taken where docs/formats.md leaves a choice open, each of which the corpus of
tests/formats/api_decoders_oracle_test.ts exercises:
  * An output is read as one JSON value by json.loads, nesting capped at 512 containers (contract
    section 1). An empty or blank output (only what JavaScript's trim() removes) is no_json.
  * The parts of an output are checked in order, and the first failure is the output's: a message's
    role, then its content, then its calls in list order; within a call, its keys, then its name,
    then its arguments, then (openai-responses) its namespace. A message's `tool_calls` or
    `function_call` that is null is absent, as the OpenAI SDKs' `model_dump()` writes them.
  * openai-chat: an array is a tool_calls list; an object with `choices` is a response; an object
    with `role`, `content`, `tool_calls` or `function_call` is a message; an object with `name` is a
    legacy call; anything else is invalid_shape. A choice's message, too, is an object with one of
    those four keys ("the output is not an assistant message (role, content, tool_calls or
    function_call)"). A message's other keys (refusal, annotations, ...) are not read. A legacy
    call, in a message's `function_call` or alone, has the keys of a tool call's `function`.
  * anthropic: an array is a list of blocks; an object whose `type` is "message", or that has no
    `type` and has `role` or `content`, is a message; any other object is one block. A message's
    blocks are read first, and only a message whose blocks all read is checked for a tool_use block
    cut at max_tokens (as docs/formats.md says since this oracle was written).
  * openai-responses: an array is a list of items; an object with `output` and no `type`, or whose
    `type` is "response", is a response; any other object is one item.
  * mistral: the text after the first [TOOL_CALLS] (prose before it is not read) is the JSON form
    when it starts, past whitespace, with `[` or `{` (one call object alone), unless with the tokens
    [ARGS] or [CALL_ID]: `[TOOL_CALLS][ARGS]{}` is the token form with no name.
  * hermes: only the first </think> met before any <think> (outside a block) closes the template's
    thinking; a later </think> outside a section is prose.
  * llama3: the calls are read as a sequence first (each one's span, from the first bracket after
    the last separator, then its JSON, then the `;` after it), and only then each call's shape
    (its type, then its keys, its name and its parameters). Whitespace around the text, the tag and
    the end token is dropped, as JavaScript's trim() drops it (NBSP too); so is mistral's after its
    text, around `</s>` and around a token form's name and call id.
"""

import json
import re
import sys

MAX_DEPTH = 512


class Fail(Exception):
    def __init__(self, status):
        super().__init__(status)
        self.status = status


def depth(v):
    """The nesting depth of containers in v (0 for a scalar), without recursion."""
    best = 0
    stack = [(v, 1)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, dict):
            best = max(best, d)
            stack.extend((y, d + 1) for y in x.values())
        elif isinstance(x, list):
            best = max(best, d)
            stack.extend((y, d + 1) for y in x)
    return best


def loads(text):
    try:
        v = json.loads(text)
    except (ValueError, RecursionError):
        raise Fail("invalid_json")
    if depth(v) > MAX_DEPTH:
        raise Fail("invalid_json")
    return v


def canonical(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def shape(ok):
    if not ok:
        raise Fail("invalid_shape")


def exact_keys(obj, required, optional=()):
    shape(all(k in obj for k in required))
    shape(all(k in required or k in optional for k in obj))


def name_of(obj):
    name = obj["name"]
    shape(isinstance(name, str) and name != "")
    return name


def arguments_string(text):
    """A call's arguments given as a JSON text: "" is no arguments, else it must hold an object."""
    shape(isinstance(text, str))
    if text == "":
        return "{}"
    v = loads(text)
    shape(isinstance(v, dict))
    return canonical(v)


def name_and_object(obj, args_key, optional=()):
    """A call object with exactly `name` and `args_key` (and `optional`), its arguments an object."""
    shape(isinstance(obj, dict))
    exact_keys(obj, ("name", args_key), optional)
    name = name_of(obj)
    shape(isinstance(obj[args_key], dict))
    return [name, canonical(obj[args_key])]


def typed_items(items):
    """Each item of a list, which must be an object with a string type, with its type."""
    shape(isinstance(items, list))
    for it in items:
        shape(isinstance(it, dict) and isinstance(it.get("type"), str))
        yield it, it["type"]


def content_parts(content, types):
    """A content list's parts must be objects of the given types."""
    for part in content:
        shape(isinstance(part, dict) and part.get("type") in types)


# ---- openai-chat@2

def chat_function(f):
    shape(isinstance(f, dict))
    exact_keys(f, ("name", "arguments"), ("parsed_arguments",))
    name = name_of(f)
    return [name, arguments_string(f["arguments"])]


def chat_tool_calls(calls):
    shape(isinstance(calls, list))
    out = []
    for i, c in enumerate(calls):
        shape(isinstance(c, dict))
        exact_keys(c, ("function",), ("type", "id", "index", "extra_content"))
        if "type" in c:
            shape(c["type"] == "function")
        if "index" in c:
            shape(type(c["index"]) is int and c["index"] == i)
        out.append(chat_function(c["function"]))
    return out


def chat_message(m):
    if "role" in m:
        shape(m["role"] == "assistant")
    content = m.get("content")
    if isinstance(content, list):
        content_parts(content, ("text", "refusal", "thinking"))
    else:
        shape(content is None or isinstance(content, str))
    calls = []
    if m.get("tool_calls") is not None:
        calls += chat_tool_calls(m["tool_calls"])
    if m.get("function_call") is not None:
        calls.append(chat_function(m["function_call"]))
    return calls


def is_chat_message(v):
    return any(k in v for k in ("role", "content", "tool_calls", "function_call"))


def openai_chat(v):
    if isinstance(v, list):
        return chat_tool_calls(v)
    shape(isinstance(v, dict))
    if "choices" in v:
        choices = v["choices"]
        shape(isinstance(choices, list) and len(choices) == 1)
        choice = choices[0]
        shape(isinstance(choice, dict) and isinstance(choice.get("message"), dict))
        shape(is_chat_message(choice["message"]))
        return chat_message(choice["message"])
    if is_chat_message(v):
        return chat_message(v)
    if "name" in v:
        return [chat_function(v)]
    raise Fail("invalid_shape")


# ---- anthropic@4

SKIPPED_BLOCKS = ("text", "thinking", "redacted_thinking")


def anthropic_blocks(blocks):
    out = []
    for b, t in typed_items(blocks):
        if t == "tool_use":
            out.append(name_and_object(b, "input", ("type", "id", "cache_control", "caller")))
        elif t in SKIPPED_BLOCKS or t.endswith("_tool_result"):
            continue
        else:
            raise Fail("invalid_shape")
    return out


def anthropic(v):
    if isinstance(v, list):
        return anthropic_blocks(v)
    shape(isinstance(v, dict))
    message = v.get("type") == "message" or ("type" not in v and ("role" in v or "content" in v))
    if not message:
        return anthropic_blocks([v])
    if "role" in v:
        shape(v["role"] == "assistant")
    # An OpenAI message read as an Anthropic one: its calls are refused, never dropped.
    shape(v.get("tool_calls") is None and v.get("function_call") is None)
    content = v.get("content")
    if isinstance(content, str):
        return []
    shape(isinstance(content, list))
    calls = anthropic_blocks(content)
    if (
        v.get("stop_reason") in ("max_tokens", "model_context_window_exceeded")
        and content
        and content[-1].get("type") == "tool_use"
    ):
        raise Fail("invalid_json")
    return calls


# ---- openai-responses@3

SKIPPED_ITEMS = ("message", "reasoning", "mcp_list_tools")


def responses_items(items):
    out = []
    for it, t in typed_items(items):
        if t == "function_call":
            exact_keys(
                it,
                ("name", "arguments"),
                ("type", "id", "call_id", "status", "parsed_arguments", "namespace"),
            )
            name = name_of(it)
            call = [name, arguments_string(it["arguments"])]
            shape(it.get("namespace") is None)
            out.append(call)
        elif t in SKIPPED_ITEMS:
            if t == "message":
                content = it.get("content")
                if isinstance(content, list):
                    content_parts(content, ("output_text", "refusal"))
                else:
                    shape(isinstance(content, str))
            continue
        else:
            raise Fail("invalid_shape")
    return out


def openai_responses(v):
    if isinstance(v, list):
        return responses_items(v)
    shape(isinstance(v, dict))
    if v.get("type") == "response" or ("type" not in v and "output" in v):
        # A response that failed, was cancelled or is not finished, or has an error: no answer.
        shape(v.get("status") not in ("failed", "cancelled", "queued", "in_progress"))
        shape(v.get("error") is None)
        return responses_items(v["output"])
    return responses_items([v])


# ---- The text formats: hermes@2, llama3@1, mistral@1

WS = " \t\n\r"
# What JavaScript's trim() removes: the text formats drop it around an output and its tokens.
JS_WS = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def hermes(text):
    tags = ("<tool_call>", "<think>", "</think>")

    def next_tag(pos):
        found = [(text.find(t, pos), t) for t in tags]
        found = [f for f in found if f[0] >= 0]
        return min(found) if found else (-1, None)

    # A </think> met before any <think>, outside a block, closes thinking the template opened.
    start = 0
    pos = 0
    while True:
        at, tag = next_tag(pos)
        if tag is None or tag == "<think>":
            break
        if tag == "<tool_call>":
            end = text.find("</tool_call>", at)
            if end < 0:
                break
            pos = end + len("</tool_call>")
            continue
        start = at + len("</think>")
        break
    calls = []
    pos = start
    while True:
        at, tag = next_tag(pos)
        if tag is None:
            return calls
        if tag == "<tool_call>":
            body = at + len("<tool_call>")
            end = text.find("</tool_call>", body)
            if end < 0:
                raise Fail("invalid_json")
            calls.append(name_and_object(loads(text[body:end]), "arguments"))
            pos = end + len("</tool_call>")
        elif tag == "<think>":
            end = text.find("</think>", at + len("<think>"))
            if end < 0:
                raise Fail("invalid_shape")
            pos = end + len("</think>")
        else:
            pos = at + len("</think>")


def bracket_span(s, i):
    """The balanced, string-aware bracket span opening at s[i]: (its end, None), or (the end of a
    closing bracket that does not match, "mismatched"), or (None, "unclosed")."""
    stack = []
    j = i
    while j < len(s):
        c = s[j]
        if c == '"':
            j += 1
            while j < len(s) and s[j] != '"':
                j += 2 if s[j] == "\\" else 1
        elif c in "{[":
            stack.append(c)
        elif c in "}]":
            if (stack.pop() == "{") != (c == "}"):
                return j + 1, "mismatched"
            if not stack:
                return j + 1, None
        j += 1
    return None, "unclosed"


def span_end(s, i):
    """The end of the span opening at s[i] (bracket_span), or raises invalid_json."""
    end, why = bracket_span(s, i)
    if why is not None:
        raise Fail("invalid_json")
    return end


def llama3(text):
    s = text.rstrip(JS_WS)
    for end in ("<|eom_id|>", "<|eot_id|>"):
        if s.endswith(end):
            s = s[: -len(end)].rstrip(JS_WS)
            break
    at = len(s) - len(s.lstrip(JS_WS))
    tagged = s.startswith("<|python_tag|>", at)
    if tagged:
        at += len("<|python_tag|>")
    elif not s.startswith("{", at):
        return []
    # The sequence first: each value's span and JSON, and the separators; then each call's shape.
    values = []
    while True:
        brackets = [i for i in (s.find("{", at), s.find("[", at)) if i >= 0]
        if not brackets:
            raise Fail("no_json")
        b = min(brackets)
        j = span_end(s, b)
        shape(s[at:b].strip(JS_WS) == "")
        values.append(loads(s[b:j]))
        at = j
        while at < len(s) and s[at] in JS_WS:
            at += 1
        if at == len(s):
            break
        shape(s[at] == ";")
        at += 1
        if s[at:].strip(JS_WS) == "":
            break
    calls = []
    for v in values:
        if isinstance(v, dict) and "type" in v:
            shape(v["type"] == "function")
        calls.append(name_and_object(v, "parameters", ("type",)))
    return calls


FUNCTION_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
CALL_ID = re.compile(r"[A-Za-z0-9]{1,64}")


def mistral(text):
    s = text.rstrip(JS_WS)
    s = (s[:-4] if s.endswith("</s>") else s).rstrip(JS_WS)
    m = s.find("[TOOL_CALLS]")
    if m < 0:
        return []
    rest = s[m + len("[TOOL_CALLS]"):]
    head = rest.lstrip(JS_WS)
    if head[:1] in ("[", "{") and not head.startswith(("[ARGS]", "[CALL_ID]")):
        items = loads(head)
        if isinstance(items, dict):
            items = [items]
        shape(isinstance(items, list))
        calls = []
        for it in items:
            shape(isinstance(it, dict))
            exact_keys(it, ("name", "arguments"), ("id",))
            name = name_of(it)
            args = it["arguments"]
            if isinstance(args, str):
                args = loads(args)
            shape(isinstance(args, dict))
            calls.append([name, canonical(args)])
        return calls
    calls = []
    for seg in rest.split("[TOOL_CALLS]"):
        a = seg.find("[ARGS]")
        shape(a >= 0)
        head = seg[:a]
        name, _, call_id = head.partition("[CALL_ID]")
        name = name.strip(JS_WS)
        shape(FUNCTION_NAME.fullmatch(name) is not None)
        if "[CALL_ID]" in head:
            shape(CALL_ID.fullmatch(call_id.strip(JS_WS)) is not None)
        args = loads(seg[a + len("[ARGS]"):])
        shape(isinstance(args, dict))
        calls.append([name, canonical(args)])
    return calls


# ---- json-list@3

WORDS = ("true", "false", "null", "NaN", "Infinity")


def can_begin(s, i):
    """Whether the bracket at s[i] can begin JSON: what follows it, past whitespace, can follow it."""
    j = i + 1
    while j < len(s) and s[j] in WS:
        j += 1
    if j == len(s):
        return False
    c = s[j]
    if s[i] == "{":
        return c in '"}'
    if c in ']"{[' or "0" <= c <= "9":
        return True
    if c == "-":
        return (j + 1 < len(s) and "0" <= s[j + 1] <= "9") or s.startswith("Infinity", j + 1)
    return s.startswith(WORDS, j)


def holds_call(v):
    def call(x):
        return isinstance(x, dict) and "name" in x and "arguments" in x
    return call(v) or (isinstance(v, list) and any(call(x) for x in v))


def json_list(text):
    brackets = [i for i, c in enumerate(text) if c in "{["]
    if not brackets:
        raise Fail("no_json")
    starts = [i for i in brackets if can_begin(text, i)]
    start = starts[0] if starts else brackets[0]
    end = span_end(text, start)
    value = loads(text[start:end])
    # Later JSON that holds a call makes the output invalid_shape.
    pos = end
    while True:
        later = [i for i in brackets if i >= pos and can_begin(text, i)]
        if not later:
            break
        b = later[0]
        e, why = bracket_span(text, b)
        if why == "unclosed":
            break
        if why is None:
            try:
                v = json.loads(text[b:e])
            except (ValueError, RecursionError):
                v = None
            shape(not holds_call(v))
        pos = e
    items = value if isinstance(value, list) else [value]
    return [name_and_object(it, "arguments") for it in items]


DECODERS = {"openai-chat": openai_chat, "anthropic": anthropic, "openai-responses": openai_responses}
TEXT_DECODERS = {"hermes": hermes, "llama3": llama3, "mistral": mistral, "json-list": json_list}


def decode(fmt, text):
    if text.strip(JS_WS) == "":
        return {"status": "no_json", "calls": []}
    try:
        if fmt in TEXT_DECODERS:
            calls = TEXT_DECODERS[fmt](text)
        else:
            calls = DECODERS[fmt](loads(text))
    except Fail as f:
        return {"status": f.status, "calls": []}
    return {"status": "ok", "calls": calls}


def main():
    out = sys.stdout
    for line in sys.stdin:
        case = json.loads(line)
        out.write(json.dumps(decode(case["format"], case["output"]), ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
