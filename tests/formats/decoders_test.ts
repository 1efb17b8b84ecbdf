// The decoders against realistic raw outputs: each row gives the exact calls (canonical
// arguments) or the status and reason.
import { deepStrictEqual as assertEquals, strictEqual, throws } from "node:assert/strict";
import { createEngine } from "../../src/engine/mod.ts";
import {
  DECODER_NAMES,
  type DecodeResult,
  decodeToolCalls,
  getDecoder,
} from "../../src/formats/mod.ts";

const J = JSON.stringify;
type Row = [format: string, title: string, output: string, expected: DecodeResult];
const ok = (...calls: [string, string][]): DecodeResult => ({
  status: "ok",
  calls: calls.map(([name, args]) => ({ name, arguments: args })),
});
const fail = (status: DecodeResult["status"], reason: string): DecodeResult => ({
  status,
  calls: [],
  reason,
});
const openAiCall = (id: string, name: string, args: string) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

const ROWS: Row[] = [
  // sommelier: the engine's parser, unchanged.
  [
    "sommelier",
    "a call in prose",
    'Sure! {"name": "search", "arguments": {"q": "x", "k": 5.0}}',
    ok(["search", '{"k":5.0,"q":"x"}']),
  ],
  [
    "sommelier",
    "a one-element list",
    '[{"name": "f", "arguments": {"n": 12345678901234567890123}}]',
    ok(["f", '{"n":12345678901234567890123}']),
  ],
  [
    "sommelier",
    "prose only",
    "The weather is sunny.",
    fail("no_json", "the output holds no JSON object or array"),
  ],
  [
    "sommelier",
    "truncated JSON",
    '{"name": "f", "arguments": {"x": 1',
    fail("invalid_json", "the JSON is not balanced: unclosed_span at 34"),
  ],
  [
    "sommelier",
    "an Anthropic block is invalid, not {} arguments",
    J({ type: "tool_use", id: "toolu_01", name: "f", input: { x: 1 } }),
    fail(
      "invalid_shape",
      'the call must be {name, arguments}: it has no arguments, an unknown key "id", an unknown key "input", an unknown key "type"',
    ),
  ],
  ["sommelier", "an empty output", "", fail("no_json", "the output is empty")],
  [
    "sommelier",
    "two calls are not one",
    '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]',
    fail("invalid_shape", "the JSON is a list of 2 items: the parser takes one call"),
  ],
  // openai-chat
  [
    "openai-chat",
    "a message with one call",
    J({
      role: "assistant",
      content: null,
      tool_calls: [openAiCall("call_9pw1", "get_weather", '{"city": "Paris", "unit": "celsius"}')],
      refusal: null,
    }),
    ok(["get_weather", '{"city":"Paris","unit":"celsius"}']),
  ],
  [
    "openai-chat",
    "three parallel calls",
    J({
      role: "assistant",
      content: null,
      tool_calls: [
        openAiCall("call_a", "get_weather", '{"city":"Paris"}'),
        openAiCall("call_b", "get_weather", '{"city":"Tokyo"}'),
        openAiCall("call_c", "get_time", '{"tz":"Asia/Tokyo","precise":true}'),
      ],
    }),
    ok(["get_weather", '{"city":"Paris"}'], ["get_weather", '{"city":"Tokyo"}'], [
      "get_time",
      '{"precise":true,"tz":"Asia/Tokyo"}',
    ]),
  ],
  [
    "openai-chat",
    "a bare tool_calls array, numbers exact",
    J([openAiCall("call_1", "pay", '{"amount": 150.0, "account": 98765432109876543210}')]),
    ok(["pay", '{"account":98765432109876543210,"amount":150.0}']),
  ],
  [
    "openai-chat",
    "the legacy function_call",
    J({
      role: "assistant",
      content: null,
      function_call: { name: "lookup", arguments: '{"id": 7}' },
    }),
    ok(["lookup", '{"id":7}']),
  ],
  [
    "openai-chat",
    "a bare legacy {name, arguments}",
    J({ name: "lookup", arguments: '{"id": 7.5}' }),
    ok(["lookup", '{"id":7.5}']),
  ],
  [
    "openai-chat",
    "a text answer",
    J({ role: "assistant", content: "It is 18 degrees in Paris.", tool_calls: null }),
    ok(),
  ],
  [
    "openai-chat",
    "arguments that are not an object",
    J({ role: "assistant", tool_calls: [openAiCall("call_1", "f", '["Paris"]')] }),
    fail(
      "invalid_shape",
      "tool call 0's function's arguments must hold a JSON object, got an array",
    ),
  ],
  [
    "openai-chat",
    "truncated arguments string",
    J({ role: "assistant", tool_calls: [openAiCall("call_1", "f", '{"city": "Par')] }),
    fail(
      "invalid_json",
      "tool call 0's function's arguments are not JSON: unterminated_string at 9",
    ),
  ],
  [
    "openai-chat",
    "arguments as an object, not a string",
    J({
      role: "assistant",
      tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: { x: 1 } } }],
    }),
    fail(
      "invalid_shape",
      "tool call 0's function's arguments must be a JSON string, got an object",
    ),
  ],
  [
    "openai-chat",
    "a truncated message",
    '{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "argu',
    fail("invalid_json", "the output is not JSON: unterminated_string at 100"),
  ],
  [
    "openai-chat",
    "a tool call with a stray key",
    J({
      role: "assistant",
      tool_calls: [{
        id: "c",
        type: "function",
        name: "g",
        function: { name: "f", arguments: "{}" },
      }],
    }),
    fail(
      "invalid_shape",
      'tool call 0 must be {type?, id?, index?, extra_content?, function}: it has an unknown key "name"',
    ),
  ],
  [
    "openai-chat",
    "Gemini's OpenAI compatibility: a thought signature in extra_content",
    J({
      role: "assistant",
      tool_calls: [{
        extra_content: { google: { thought_signature: "CpcBAdHtim9k" } },
        function: { arguments: '{"city":"Paris","days":2.0}', name: "get_weather" },
        id: "function-call-1",
        type: "function",
      }],
    }),
    ok(["get_weather", '{"city":"Paris","days":2.0}']),
  ],
  [
    "openai-chat",
    "Magistral: a thinking part in the message's content is skipped",
    J({
      role: "assistant",
      content: [
        { type: "thinking", thinking: [{ type: "text", text: "The user wants Paris." }] },
        { type: "text", text: "" },
      ],
      tool_calls: [openAiCall("8sJcO4Fzl", "get_weather", '{"city": "Paris"}')],
    }),
    ok(["get_weather", '{"city":"Paris"}']),
  ],
  [
    "openai-chat",
    "GPT-5's custom tool call, which has no JSON arguments",
    J({
      role: "assistant",
      tool_calls: [{ id: "call_1", type: "custom", custom: { name: "apply_patch", input: "x" } }],
    }),
    fail(
      "invalid_shape",
      'tool call 0 is a "custom" tool call: openai-chat reads "function" calls',
    ),
  ],
  [
    "openai-chat",
    "a Responses API response read with the wrong decoder",
    J({ object: "response", status: "completed", output: [] }),
    fail(
      "invalid_shape",
      "the output is a Responses API response (output items): read it with openai-responses",
    ),
  ],
  [
    "openai-responses",
    "a Chat Completions response read with the wrong decoder",
    J({ object: "chat.completion", choices: [] }),
    fail(
      "invalid_shape",
      "the output is a Chat Completions response (choices): read it with openai-chat",
    ),
  ],
  [
    "anthropic",
    "a Chat Completions message with text content: its calls are not dropped",
    J({
      role: "assistant",
      content: "Let me check.",
      tool_calls: [openAiCall("call_1", "get_weather", '{"city": "Paris"}')],
    }),
    fail(
      "invalid_shape",
      "the message has tool_calls (a Chat Completions message's calls): anthropic reads " +
        "tool_use blocks",
    ),
  ],
  [
    "anthropic",
    "a Chat Completions message with content parts and a legacy function_call",
    J({
      role: "assistant",
      content: [{ type: "text", text: "Sure." }],
      function_call: { name: "f", arguments: "{}" },
    }),
    fail(
      "invalid_shape",
      "the message has function_call (a Chat Completions message's calls): anthropic reads " +
        "tool_use blocks",
    ),
  ],
  [
    "anthropic",
    "a message whose Chat Completions keys are null, as the OpenAI SDKs write them",
    J({ role: "assistant", content: "It is sunny.", tool_calls: null, function_call: null }),
    ok(),
  ],
  [
    "openai-responses",
    "a failed response holds no answer",
    J({
      id: "resp_1",
      object: "response",
      status: "failed",
      error: { code: "server_error", message: "The model failed to generate a response." },
      incomplete_details: null,
      output: [],
    }),
    fail(
      "invalid_shape",
      'the response holds no finished output: its status is "failed" and it has an error ' +
        '("server_error"); retry the request rather than score it',
    ),
  ],
  [
    "openai-responses",
    "a background response polled before it finished",
    J({ id: "resp_1", object: "response", status: "in_progress", error: null, output: [] }),
    fail(
      "invalid_shape",
      'the response holds no finished output: its status is "in_progress"; retry the request ' +
        "rather than score it",
    ),
  ],
  [
    "openai-responses",
    "an incomplete response is read: a call it cut short does not parse",
    J({
      object: "response",
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      error: null,
      output: [{ type: "function_call", call_id: "c", name: "f", arguments: '{"city": "Pa' }],
    }),
    fail("invalid_json", "output item 0's arguments are not JSON: unterminated_string at 9"),
  ],
  [
    "openai-chat",
    "a whole response with one choice",
    J({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1748496646,
      model: "gpt-4o-2024-08-06",
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          annotations: [],
          tool_calls: [openAiCall("call_1", "get_weather", '{"city": "Paris", "days": 2.0}')],
        },
        logprobs: null,
        finish_reason: "tool_calls",
      }],
      usage: { prompt_tokens: 91, completion_tokens: 14, total_tokens: 105 },
    }),
    ok(["get_weather", '{"city":"Paris","days":2.0}']),
  ],
  [
    "openai-chat",
    "a whole response with a text answer",
    J({
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }],
    }),
    ok(),
  ],
  [
    "openai-chat",
    "a response with two choices",
    J({
      object: "chat.completion",
      choices: [0, 1].map((index) => ({
        index,
        message: { role: "assistant", tool_calls: [openAiCall("c", "f", "{}")] },
      })),
    }),
    fail(
      "invalid_shape",
      "the response has 2 choices: the decoder reads one (a request with n = 1)",
    ),
  ],
  [
    "openai-chat",
    "a response with no choices",
    J({ object: "chat.completion", choices: [] }),
    fail(
      "invalid_shape",
      "the response has 0 choices: the decoder reads one (a request with n = 1)",
    ),
  ],
  [
    "openai-chat",
    "a stream chunk is not a response",
    J({
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
    }),
    fail(
      "invalid_shape",
      "choice 0 must be an object with a message object, got a stream chunk's delta: join the " +
        "stream's chunks into one message first",
    ),
  ],
  [
    "openai-chat",
    "a response whose choice's message is a user's",
    J({ object: "chat.completion", choices: [{ index: 0, message: { role: "user" } }] }),
    fail("invalid_shape", 'the output is not an assistant message: its role is "user"'),
  ],
  [
    "openai-chat",
    "a response's bad arguments",
    J({
      object: "chat.completion",
      choices: [{
        index: 0,
        message: { role: "assistant", tool_calls: [openAiCall("c", "f", "[1]")] },
      }],
    }),
    fail(
      "invalid_shape",
      "tool call 0's function's arguments must hold a JSON object, got an array",
    ),
  ],
  [
    "openai-chat",
    'a streamed and joined message: calls keep their index, a call without arguments has ""',
    J({
      role: "assistant",
      content: null,
      tool_calls: [
        { index: 0, id: "call_a", type: "function", function: { name: "now", arguments: "" } },
        { index: 1, id: "call_b", type: "function", function: { name: "f", arguments: '{"x":1}' } },
      ],
    }),
    ok(["now", "{}"], ["f", '{"x":1}']),
  ],
  [
    "openai-chat",
    "a joined stream's calls out of their order",
    J({
      role: "assistant",
      tool_calls: [
        { index: 1, id: "call_b", type: "function", function: { name: "f", arguments: "{}" } },
        { index: 0, id: "call_a", type: "function", function: { name: "g", arguments: "{}" } },
      ],
    }),
    fail("invalid_shape", "tool call 0's index must be 0, its place in the list, got 1"),
  ],
  [
    "openai-chat",
    "arguments that are only whitespace are not an empty call",
    J({ role: "assistant", tool_calls: [openAiCall("c", "f", " ")] }),
    fail("invalid_json", "tool call 0's function's arguments are not JSON: expecting_value at 1"),
  ],
  [
    "openai-chat",
    "a call with the parsed_arguments the SDK's .parse() adds",
    J({
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "call_1",
        type: "function",
        function: { name: "f", arguments: '{"n": 2.0}', parsed_arguments: { n: 2 } },
      }],
      parsed: null,
    }),
    ok(["f", '{"n":2.0}']),
  ],
  [
    "openai-chat",
    "a user message is not an assistant message",
    J({ role: "user", content: "hi" }),
    fail("invalid_shape", 'the output is not an assistant message: its role is "user"'),
  ],
  [
    "openai-chat",
    "a tool message is not an assistant message",
    J({ role: "tool", tool_call_id: "call_1", content: '{"temp": 21}' }),
    fail("invalid_shape", 'the output is not an assistant message: its role is "tool"'),
  ],
  [
    "openai-chat",
    "a role that is not a string",
    J({ role: 1 }),
    fail("invalid_shape", "the output is not an assistant message: its role is a number"),
  ],
  // openai-responses
  [
    "openai-responses",
    "output items with reasoning and a call",
    J([{ type: "reasoning", id: "rs_1", summary: [] }, {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "get_weather",
      arguments: '{"city":"Oslo","days":3}',
      status: "completed",
    }]),
    ok(["get_weather", '{"city":"Oslo","days":3}']),
  ],
  [
    "openai-responses",
    "a whole response with two calls",
    J({
      id: "resp_1",
      object: "response",
      status: "completed",
      output: [{
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "a",
        arguments: "{}",
        status: "completed",
      }, {
        type: "function_call",
        id: "fc_2",
        call_id: "call_2",
        name: "b",
        arguments: '{"v": -0.0}',
        status: "completed",
      }],
    }),
    ok(["a", "{}"], ["b", '{"v":-0.0}']),
  ],
  [
    "openai-responses",
    "a message item only",
    J({
      object: "response",
      output: [{
        type: "message",
        id: "msg_1",
        role: "assistant",
        content: [{ type: "output_text", text: "Hi" }],
      }],
    }),
    ok(),
  ],
  [
    "openai-responses",
    "a function_call with input instead of arguments",
    J([{ type: "function_call", call_id: "c", name: "f", input: {} }]),
    fail(
      "invalid_shape",
      'output item 0 must be {name, arguments, type?, id?, call_id?, status?, parsed_arguments?, namespace?}: it has no arguments, an unknown key "input"',
    ),
  ],
  [
    "openai-responses",
    "an item without a type",
    J([{ name: "f", arguments: "{}" }]),
    fail("invalid_shape", "output item 0 must be an object with a string type"),
  ],
  [
    "openai-responses",
    "a message item alone is skipped",
    J({
      type: "message",
      id: "msg_1",
      role: "assistant",
      content: [{ type: "output_text", text: "Hi" }],
    }),
    ok(),
  ],
  [
    "openai-responses",
    "a reasoning item alone is skipped",
    J({ type: "reasoning", id: "rs_1", summary: [] }),
    ok(),
  ],
  [
    "openai-responses",
    "a function_call item alone",
    J({ type: "function_call", call_id: "call_1", name: "f", arguments: '{"n": 2.50}' }),
    ok(["f", '{"n":2.5}']),
  ],
  [
    "openai-responses",
    "a function_call with the parsed_arguments the SDK's .parse() adds",
    J([{
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "f",
      arguments: '{"n": 2.0}',
      status: "completed",
      parsed_arguments: { n: 2 },
    }]),
    ok(["f", '{"n":2.0}']),
  ],
  [
    "openai-responses",
    'a function_call without arguments, sent as ""',
    J({ type: "function_call", call_id: "call_1", name: "now", arguments: "" }),
    ok(["now", "{}"]),
  ],
  [
    "openai-responses",
    "a response whose output is not a list",
    J({ object: "response", output: "Hi" }),
    fail("invalid_shape", "output must be an array, got a string"),
  ],
  [
    "openai-responses",
    "a function_call whose namespace is null, as current items carry it",
    J([{
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      namespace: null,
      name: "get_weather",
      arguments: '{"city":"Oslo"}',
      status: "completed",
    }]),
    ok(["get_weather", '{"city":"Oslo"}']),
  ],
  [
    "openai-responses",
    "a namespaced tool's call: its namespace scopes the name, refused",
    J({ type: "function_call", call_id: "call_1", namespace: "crm", name: "get", arguments: "{}" }),
    fail(
      "invalid_shape",
      'the output item has namespace "crm", which scopes its name: a namespaced tool\'s call is not read (only a null namespace)',
    ),
  ],
  [
    "openai-responses",
    "a namespace that is not a string",
    J([{ type: "function_call", call_id: "call_1", namespace: 1, name: "get", arguments: "{}" }]),
    fail("invalid_shape", "output item 0's namespace must be null or a string, got a number"),
  ],
  [
    "openai-responses",
    "a tool output item alone is refused for its type, not read as a list of items",
    J({ type: "function_call_output", call_id: "call_1", output: '{"temp": 21}' }),
    fail(
      "invalid_shape",
      'the output item is a "function_call_output" item: openai-responses reads function_call items and skips message, reasoning and mcp_list_tools items',
    ),
  ],
  // A line of a batch's results wraps the output: the reason says where the output is.
  ...((): Row[] => {
    const completion = {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [openAiCall("call_1", "get_weather", '{"city": "Paris"}')],
        },
        finish_reason: "tool_calls",
      }],
    };
    const line = (body: unknown) =>
      J({
        id: "batch_req_1",
        custom_id: "request-1",
        response: { status_code: 200, request_id: "req_1", body },
        error: null,
      });
    const wrapped = fail(
      "invalid_shape",
      'the output is a batch result line (custom_id "request-1"): its response.body is the output to decode',
    );
    return [
      ["openai-chat", "a Batch API output line", line(completion), wrapped],
      [
        "openai-chat",
        "a Batch API output line's body",
        J(completion),
        ok(["get_weather", '{"city":"Paris"}']),
      ],
      [
        "openai-responses",
        "a Batch API output line",
        line({ object: "response", status: "completed", output: [] }),
        wrapped,
      ],
      [
        "anthropic",
        "a Message Batches result line",
        J({
          custom_id: "request-1",
          result: {
            type: "succeeded",
            message: { type: "message", role: "assistant", content: [], stop_reason: "end_turn" },
          },
        }),
        fail(
          "invalid_shape",
          'the output is a batch result line (custom_id "request-1"): its result.message is the output to decode',
        ),
      ],
    ];
  })(),
  // anthropic
  [
    "anthropic",
    "a message with text and tool_use",
    J({
      id: "msg_01",
      type: "message",
      role: "assistant",
      model: "claude",
      content: [{ type: "text", text: "Let me check." }, {
        type: "tool_use",
        id: "toolu_01",
        name: "get_weather",
        input: { city: "Paris" },
      }],
      stop_reason: "tool_use",
    }),
    ok(["get_weather", '{"city":"Paris"}']),
  ],
  [
    "anthropic",
    "a content array with two tool_use blocks",
    '[{"type": "tool_use", "id": "toolu_1", "name": "a", "input": {"n": 1.0}}, {"type": "tool_use", "id": "toolu_2", "name": "b", "input": {}}]',
    ok(["a", '{"n":1.0}'], ["b", "{}"]),
  ],
  [
    "anthropic",
    "a text-only message",
    J({ type: "message", role: "assistant", content: [{ type: "text", text: "No tool needed." }] }),
    ok(),
  ],
  [
    "anthropic",
    "input that is a string",
    J({ content: [{ type: "tool_use", id: "t", name: "f", input: '{"x":1}' }] }),
    fail("invalid_shape", "content block 0's input must be an object, got a string"),
  ],
  [
    "anthropic",
    "an OpenAI-shaped call is not a block",
    J({ content: [{ type: "tool_use", name: "f", arguments: {} }] }),
    fail(
      "invalid_shape",
      'content block 0 must be {name, input, type?, id?, cache_control?, caller?}: it has no input, an unknown key "arguments"',
    ),
  ],
  [
    "anthropic",
    "a tool_use block with its caller, as current responses carry it",
    '{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Paris"},"caller":{"type":"direct"}}],"stop_reason":"tool_use"}',
    ok(["get_weather", '{"city":"Paris"}']),
  ],
  [
    "anthropic",
    "a tool_use block called from code execution",
    J({
      type: "tool_use",
      id: "toolu_02",
      name: "query_db",
      input: { sql: "select 1" },
      caller: { type: "code_execution_20250825", tool_id: "srvtoolu_01" },
    }),
    ok(["query_db", '{"sql":"select 1"}']),
  ],
  [
    "anthropic",
    "a toolset member's block: its toolset_name scopes the name, refused",
    J({
      type: "tool_use",
      id: "toolu_03",
      name: "type",
      input: { text: "hi" },
      toolset_name: "computer",
      caller: { type: "direct" },
    }),
    fail(
      "invalid_shape",
      'the content block must be {name, input, type?, id?, cache_control?, caller?}: it has an unknown key "toolset_name"',
    ),
  ],
  [
    "anthropic",
    "a user message with a tool_use block is not an output",
    J({
      role: "user",
      content: [{ type: "tool_use", id: "toolu_01", name: "f", input: {} }],
    }),
    fail("invalid_shape", 'the output is not an assistant message: its role is "user"'),
  ],
  [
    "anthropic",
    "a user message with string content is not a text answer",
    J({ role: "user", content: "What is the weather in Paris?" }),
    fail("invalid_shape", 'the output is not an assistant message: its role is "user"'),
  ],
  [
    "anthropic",
    "a text block alone is skipped",
    J({ type: "text", text: "hi" }),
    ok(),
  ],
  [
    "anthropic",
    "a thinking block alone is skipped",
    J({ type: "thinking", thinking: "The user wants...", signature: "EqQB" }),
    ok(),
  ],
  // A server tool's result alone is skipped as in a list: its content is its payload, not blocks.
  [
    "anthropic",
    "a web search result block alone is skipped",
    J({
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_01",
      content: [{
        type: "web_search_result",
        url: "https://example.com/paris",
        title: "Paris weather",
        encrypted_content: "EqgfCioIARgBIiQ3YTAw",
        page_age: "June 4, 2026",
      }],
    }),
    ok(),
  ],
  [
    "anthropic",
    "a code execution result block alone is skipped",
    J({
      type: "code_execution_tool_result",
      tool_use_id: "srvtoolu_02",
      content: { type: "code_execution_result", stdout: "4\n", stderr: "", return_code: 0 },
    }),
    ok(),
  ],
  [
    "anthropic",
    "an MCP result block alone is not read for calls in its content",
    J({
      type: "mcp_tool_result",
      tool_use_id: "mcptoolu_01",
      is_error: false,
      content: [{ type: "tool_use", id: "toolu_x", name: "delete_all", input: {} }],
    }),
    ok(),
  ],
  [
    "anthropic",
    "a tool_use block alone",
    '{"type": "tool_use", "id": "toolu_01", "name": "f", "input": {"x": [1, 2.0]}}',
    ok(["f", '{"x":[1,2.0]}']),
  ],
  // A message cut short by max_tokens in a tool_use block: the API gives the input it had parsed
  // when the output stopped, so the call is unfinished, not a call to score.
  [
    "anthropic",
    "a message that stopped at max_tokens in its tool_use block",
    '{"id": "msg_02", "type": "message", "role": "assistant", "model": "claude", "content": [{"type": "text", "text": "I will write the file."}, {"type": "tool_use", "id": "toolu_04", "name": "write_file", "input": {"path": "notes.md"}}], "stop_reason": "max_tokens", "stop_sequence": null}',
    fail(
      "invalid_json",
      "the message stopped at max_tokens in its last block, a tool_use block: its input is cut short",
    ),
  ],
  [
    "anthropic",
    "a message that filled the context window in its tool_use block",
    J({
      type: "message",
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_05", name: "f", input: {} }],
      stop_reason: "model_context_window_exceeded",
    }),
    fail(
      "invalid_json",
      "the message stopped at model_context_window_exceeded in its last block, a tool_use block: its input is cut short",
    ),
  ],
  [
    "anthropic",
    "a message that stopped at max_tokens in text after a whole tool_use block",
    J({
      type: "message",
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_06", name: "f", input: { n: 1 } },
        { type: "text", text: "Meanwhile, here is" },
      ],
      stop_reason: "max_tokens",
    }),
    ok(["f", '{"n":1}']),
  ],
  [
    "anthropic",
    "content that is neither a string nor a list",
    J({ type: "message", role: "assistant", content: { type: "text", text: "hi" } }),
    fail("invalid_shape", "content must be an array, got an object"),
  ],
  // A call the decoder cannot score, or another API's, is refused: never no call.
  ...((): Row[] => {
    const block = { type: "tool_use", id: "t", name: "delete_all", input: {} };
    const anthropicMessage = J({ type: "message", role: "assistant", content: [block] });
    const responses = "openai-responses reads function_call items and skips message, " +
      "reasoning and mcp_list_tools items";
    const anthropic = "anthropic reads tool_use blocks and skips text, thinking, " +
      "redacted_thinking and *_tool_result blocks";
    const chatCalls = J([openAiCall("c", "f", "{}")]);
    return [
      [
        "openai-chat",
        "an Anthropic message with a tool_use block",
        anthropicMessage,
        fail(
          "invalid_shape",
          'content part 0 is a "tool_use" part (an Anthropic tool call): a message\'s content parts are text, refusal and thinking',
        ),
      ],
      [
        "openai-chat",
        "content blocks without a role",
        J({ content: [{ type: "text", text: "Sure." }, block] }),
        fail(
          "invalid_shape",
          'content part 1 is a "tool_use" part (an Anthropic tool call): a message\'s content parts are text, refusal and thinking',
        ),
      ],
      [
        "openai-chat",
        "text and refusal content parts are a text answer",
        J({
          role: "assistant",
          content: [{ type: "text", text: "No." }, { type: "refusal", refusal: "I can't." }],
        }),
        ok(),
      ],
      [
        "openai-chat",
        "content that is an object",
        J({ role: "assistant", content: block }),
        fail(
          "invalid_shape",
          "content must be a string, null or an array of content parts, got an object",
        ),
      ],
      [
        "openai-responses",
        "an Anthropic message read as a message item",
        anthropicMessage,
        fail(
          "invalid_shape",
          "the output item's content part 0 is a \"tool_use\" part (an Anthropic tool call): a message's content parts are output_text and refusal",
        ),
      ],
      [
        "openai-responses",
        "a list of Anthropic blocks",
        J([{ type: "text", text: "Sure." }, block]),
        fail(
          "invalid_shape",
          `output item 0 is a "text" item (an Anthropic block): ${responses}`,
        ),
      ],
      [
        "openai-responses",
        "a Chat Completions tool_calls array",
        chatCalls,
        fail(
          "invalid_shape",
          `output item 0 is a "function" item (a Chat Completions tool call): ${responses}`,
        ),
      ],
      [
        "openai-responses",
        "a custom tool's call",
        J([{ type: "custom_tool_call", id: "ctc_1", call_id: "c", name: "apply", input: "x" }]),
        fail("invalid_shape", `output item 0 is a "custom_tool_call" item: ${responses}`),
      ],
      [
        "openai-responses",
        "an MCP call after its tool list",
        J({
          object: "response",
          output: [
            { type: "mcp_list_tools", id: "mcpl_1", server_label: "s", tools: [] },
            { type: "mcp_call", id: "mcp_1", server_label: "s", name: "rm", arguments: "{}" },
          ],
        }),
        fail("invalid_shape", `output item 1 is a "mcp_call" item: ${responses}`),
      ],
      [
        "openai-responses",
        "a hosted tool's call alone",
        J({ type: "web_search_call", id: "ws_1", status: "completed" }),
        fail("invalid_shape", `the output item is a "web_search_call" item: ${responses}`),
      ],
      [
        "anthropic",
        "a Chat Completions tool_calls array",
        chatCalls,
        fail(
          "invalid_shape",
          `content block 0 is a "function" block (a Chat Completions tool call): ${anthropic}`,
        ),
      ],
      [
        "anthropic",
        "a list of Responses items",
        J([{ type: "reasoning", id: "rs_1", summary: [] }, {
          type: "function_call",
          call_id: "c",
          name: "f",
          arguments: "{}",
        }]),
        fail("invalid_shape", `content block 0 is a "reasoning" block: ${anthropic}`),
      ],
      [
        "anthropic",
        "a server tool's call and its result",
        J({
          role: "assistant",
          content: [
            { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { q: "x" } },
            { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
          ],
        }),
        fail("invalid_shape", `content block 0 is a "server_tool_use" block: ${anthropic}`),
      ],
      [
        "anthropic",
        "thinking, a server tool's result and text are no calls",
        J({
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Look it up.", signature: "EqQB" },
            { type: "redacted_thinking", data: "EmwK" },
            { type: "web_fetch_tool_result", tool_use_id: "srvtoolu_1", content: {} },
            { type: "text", text: "Done." },
          ],
        }),
        ok(),
      ],
    ];
  })(),
  // hermes
  [
    "hermes",
    "two blocks with whitespace and a think",
    '<think>Two cities.</think>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n  {"name": "get_weather", "arguments": {"city": "Lyon", "days": 2.0}}\n</tool_call>',
    ok(["get_weather", '{"city":"Paris"}'], ["get_weather", '{"city":"Lyon","days":2.0}']),
  ],
  ["hermes", "prose, no block", "I don't need a tool for that.", ok()],
  [
    "hermes",
    "a block inside <think> is thinking, not a call",
    '<think>maybe <tool_call>{"name":"rm","arguments":{}}</tool_call></think>Answer: 4',
    ok(),
  ],
  [
    "hermes",
    "a </think> the template opened in the prompt: the text before it is thinking",
    'I could <tool_call>{"name":"rm","arguments":{}}</tool_call>, no.\n</think>\n\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>',
    ok(["f", "{}"]),
  ],
  [
    "hermes",
    "<think> and </think> inside a block's JSON are its text",
    '<tool_call>{"name": "f", "arguments": {"s": "</think>"}}</tool_call><think>ok</think><tool_call>{"name": "g", "arguments": {"s": "<think>"}}</tool_call>',
    ok(["f", '{"s":"</think>"}'], ["g", '{"s":"<think>"}']),
  ],
  [
    "hermes",
    "a <think> never closed",
    '<think>I will call <tool_call>{"name":"rm","arguments":{}}</tool_call>',
    fail("invalid_shape", "the <think> section at 0 is not closed: the output ends in it"),
  ],
  [
    "hermes",
    "an unclosed block",
    '<tool_call>\n{"name": "f", "arguments": {}}',
    fail("invalid_json", "the <tool_call> block at 0 is not closed"),
  ],
  [
    "hermes",
    "a block with broken JSON",
    '<tool_call>{"name": "f", "arguments": {"x": }}</tool_call>',
    fail("invalid_json", "the <tool_call> block at 0 is not JSON: expecting_value at 44"),
  ],
  [
    "hermes",
    "a block with parameters instead of arguments",
    '<tool_call>{"name": "f", "parameters": {}}</tool_call>',
    fail(
      "invalid_shape",
      'the call of the <tool_call> block at 0 must be {name, arguments}: it has no arguments, an unknown key "parameters"',
    ),
  ],
  // llama3
  [
    "llama3",
    "after <|python_tag|>",
    '<|python_tag|>{"name": "get_weather", "parameters": {"city": "San Francisco, CA", "unit": "fahrenheit"}}<|eom_id|>',
    ok(["get_weather", '{"city":"San Francisco, CA","unit":"fahrenheit"}']),
  ],
  [
    "llama3",
    "two calls separated by ;",
    '{"name": "a", "parameters": {"s": "x;y"}}; {"type": "function", "name": "b", "parameters": {"n": 1e2}}',
    ok(["a", '{"s":"x;y"}'], ["b", '{"n":100.0}']),
  ],
  ["llama3", "a text answer", "The capital of France is Paris.<|eot_id|>", ok()],
  [
    "llama3",
    "arguments instead of parameters",
    '<|python_tag|>{"name": "f", "arguments": {}}',
    fail(
      "invalid_shape",
      'call 0 must be {name, parameters, type?}: it has no parameters, an unknown key "arguments"',
    ),
  ],
  [
    "llama3",
    "truncated",
    '<|python_tag|>{"name": "f", "parameters": {"q": "abc',
    fail("invalid_json", "call 0 is not balanced: unclosed_span at 52"),
  ],
  [
    "llama3",
    "junk between calls",
    '{"name": "a", "parameters": {}} and {"name": "b", "parameters": {}}',
    fail("invalid_shape", 'expected ";" or the end after call 0, at 32'),
  ],
  [
    "llama3",
    "a trailing semicolon",
    '{"name": "a", "parameters": {"x": [1, 2.5]}};\n',
    ok(["a", '{"x":[1,2.5]}']),
  ],
  // mistral
  [
    "mistral",
    "a [TOOL_CALLS] list with ids",
    '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1b2c3d4e"}, {"name": "get_time", "arguments": "{\\"tz\\": \\"CET\\"}", "id": "f5g6h7i8j"}]',
    ok(["get_weather", '{"city":"Paris"}'], ["get_time", '{"tz":"CET"}']),
  ],
  [
    "mistral",
    "the [ARGS] form",
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}',
    ok(["get_weather", '{"city":"Paris"}'], ["get_time", "{}"]),
  ],
  ["mistral", "a text answer", "Bonjour ! Comment puis-je vous aider ?", ok()],
  [
    "mistral",
    "the v11 form with [CALL_ID]",
    '[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[CALL_ID]f5g6h7i8j[ARGS]{}</s>',
    ok(["get_weather", '{"city":"Paris"}'], ["get_time", "{}"]),
  ],
  [
    "mistral",
    "text that is not a function name before [ARGS]",
    "[TOOL_CALLS]get weather!!![ARGS]{}",
    fail(
      "invalid_shape",
      'call 0\'s name "get weather!!!" at 12 is not a function name (letters, digits, _ and -, at most 64)',
    ),
  ],
  [
    "mistral",
    "a [CALL_ID] that is not an id",
    "[TOOL_CALLS]f[CALL_ID]x[CALL_ID]y[ARGS]{}",
    fail(
      "invalid_shape",
      'call 0\'s [CALL_ID] "x[CALL_ID]y" at 13 is not a call id (letters and digits, at most 64)',
    ),
  ],
  [
    "mistral",
    "no name before [ARGS]",
    "[TOOL_CALLS][ARGS]{}",
    fail("invalid_shape", "call 0 has no name before [ARGS], at 12"),
  ],
  [
    "mistral",
    "text after the arguments, its offset from the output's start",
    "[TOOL_CALLS]f[ARGS]{} trailing",
    fail("invalid_json", "call 0's arguments is not JSON: extra_data at 22"),
  ],
  [
    "mistral",
    "a second call's bad arguments, its offset from the output's start",
    '[TOOL_CALLS]a[ARGS]{}[TOOL_CALLS]b[ARGS]{"x": }',
    fail("invalid_json", "call 1's arguments is not JSON: expecting_value at 46"),
  ],
  [
    "mistral",
    "a truncated list",
    '[TOOL_CALLS][{"name": "f", "arguments": {"x": 1}',
    fail("invalid_json", "the JSON after [TOOL_CALLS] is not JSON: expecting_comma at 48"),
  ],
  [
    "mistral",
    "arguments that are a number",
    '[TOOL_CALLS][{"name": "f", "arguments": 3}]',
    fail("invalid_shape", "call 0's arguments must be an object or a JSON string, got a number"),
  ],
  // pythonic
  [
    "pythonic",
    "two calls with Python literals",
    '[get_weather(city="Paris", days=3, detailed=True, hours=[9, 12.0], extra=None), math.factorial(n=-5)]',
    ok(["get_weather", '{"city":"Paris","days":3,"detailed":true,"extra":null,"hours":[9,12.0]}'], [
      "math.factorial",
      '{"n":-5}',
    ]),
  ],
  [
    "pythonic",
    "a dict and a tuple",
    "[book(room={'floor': 2, 'view': 'sea'}, dates=('2025-01-01', '2025-01-03'))]",
    ok(["book", '{"dates":["2025-01-01","2025-01-03"],"room":{"floor":2,"view":"sea"}}']),
  ],
  [
    "pythonic",
    "a positional argument",
    '[get_weather("Paris")]',
    fail("invalid_shape", "call 0 (get_weather) has a positional argument: keywords only"),
  ],
  [
    "pythonic",
    "an expression that would be evaluated",
    "[f(x=1+2)]",
    fail(
      "invalid_shape",
      "call 0 (f)'s argument x is an operator expression, not a literal JSON can hold",
    ),
  ],
  ["pythonic", "a syntax error", "[f(x=1)", fail("invalid_syntax", "'[' was never closed")],
  [
    "pythonic",
    "a bare name as a value",
    "[f(unit=celsius)]",
    fail("invalid_shape", "call 0 (f)'s argument unit is a name, not a literal JSON can hold"),
  ],
  [
    "pythonic",
    "Llama 3.2's end of turn after the list",
    '[get_weather(city="Paris")]<|eot_id|>',
    ok(["get_weather", '{"city":"Paris"}']),
  ],
  [
    "pythonic",
    "Llama 3.1's python tag and end of message, with whitespace around each",
    '\n<|python_tag|> [get_weather(city="Paris"), get_time(tz="CET")] <|eom_id|>\n',
    ok(["get_weather", '{"city":"Paris"}'], ["get_time", '{"tz":"CET"}']),
  ],
  [
    "pythonic",
    "an end token inside a string is the string's",
    '[say(text="bye<|eot_id|>")]<|eot_id|>',
    ok(["say", '{"text":"bye<|eot_id|>"}']),
  ],
  [
    "pythonic",
    "after the python tag, a built-in tool's call is no list of calls",
    '<|python_tag|>brave_search.call(query="Paris weather")<|eom_id|>',
    fail("invalid_shape", "the output is not one list of calls"),
  ],
  [
    "pythonic",
    "after the python tag, code is no list of calls",
    "<|python_tag|>import sys<|eom_id|>",
    fail("invalid_syntax", "invalid syntax at 0"),
  ],
  [
    "pythonic",
    "an end token between two lists is not stripped",
    "[f(x=1)]<|eot_id|>[g(y=2)]",
    fail("invalid_syntax", "invalid syntax at 9"),
  ],
  [
    "pythonic",
    "one end token is stripped, not two",
    "[f(x=1)]<|eot_id|><|eot_id|>",
    fail("invalid_syntax", "invalid syntax at 9"),
  ],
  ["pythonic", "a python tag after prose is prose", "Sure. <|python_tag|>[f(x=1)]", ok()],
  [
    "pythonic",
    "Llama 4's python start and end tags and end of turn, with whitespace around each",
    '<|python_start|> [get_weather(city="Paris"), get_time(tz="CET")]\n<|python_end|> <|eot|>\n',
    ok(["get_weather", '{"city":"Paris"}'], ["get_time", '{"tz":"CET"}']),
  ],
  [
    "pythonic",
    "Llama 4's end of message after a bare list",
    '[get_weather(city="Paris")]<|eom|>',
    ok(["get_weather", '{"city":"Paris"}']),
  ],
  [
    "pythonic",
    "after Llama 4's python start, code is no list of calls",
    "<|python_start|>import sys<|python_end|>",
    fail("invalid_syntax", "invalid syntax at 0"),
  ],
  [
    "pythonic",
    "a python end without its start is not stripped",
    "[f(x=1)]<|python_end|>",
    fail("invalid_syntax", "invalid syntax at 9"),
  ],
  ["pythonic", "a Llama 4 text answer that ends its turn", "It is sunny.<|eot|>", ok()],
  ["pythonic", "a text answer that ends its turn", "It is sunny.<|eot_id|>", ok()],
  // json-list
  [
    "json-list",
    "a list of calls in a code fence",
    '```json\n[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {"y": [1.5, "z"]}}]\n```',
    ok(["a", '{"x":1}'], ["b", '{"y":[1.5,"z"]}']),
  ],
  ["json-list", "a single object", '{"name": "a", "arguments": {}}', ok(["a", "{}"])],
  ["json-list", "an empty list", "[]", ok()],
  [
    "json-list",
    "an Anthropic block in the list",
    J([{ type: "tool_use", name: "f", input: { x: 1 } }]),
    fail(
      "invalid_shape",
      'call 0 must be {name, arguments}: it has no arguments, an unknown key "input", an unknown key "type"',
    ),
  ],
  [
    "json-list",
    "a second call after the first is refused, not dropped",
    '{"name":"f","arguments":{"a":1}} {"name":"g","arguments":{}}',
    fail(
      "invalid_shape",
      "another JSON value at 33 holds a call: json-list reads the calls of the first JSON value only (write every call in one list)",
    ),
  ],
  [
    "json-list",
    "a second list with a call after prose",
    '[{"name": "f", "arguments": {}}]\nThen: [1, {"name": "g", "arguments": {}}]',
    fail(
      "invalid_shape",
      "another JSON value at 39 holds a call: json-list reads the calls of the first JSON value only (write every call in one list)",
    ),
  ],
  [
    "json-list",
    "later JSON that holds no call is prose",
    '```json\n[{"name": "a", "arguments": {"x": 1}}]\n```\nI passed {"x": 1}, [1, 2] and {"name": "Ada"} {oops} [',
    ok(["a", '{"x":1}']),
  ],
  [
    "json-list",
    "an unclosed bracket in prose before the list",
    'Note: the list [a, b is long. [{"name": "f", "arguments": {}}]',
    ok(["f", "{}"]),
  ],
  [
    "json-list",
    "braces and brackets of prose before the list",
    'I will {check} [the tool] and [note it]: {"name": "f", "arguments": {"x": [1]}}',
    ok(["f", '{"x":[1]}']),
  ],
  [
    "json-list",
    "a list cut short is not read as its first call",
    'Calls: [{"name": "f", "arguments": {}}, {"name": "g", "arguments": {"x": 1',
    fail("invalid_json", "the JSON is not balanced: unclosed_span at 74"),
  ],
  [
    "json-list",
    "JSON before the list is the value read",
    'See [1]. [{"name": "f", "arguments": {}}]',
    fail("invalid_shape", "call 0 must be an object, got a number"),
  ],
  [
    "json-list",
    "a later call after an unclosed bracket in prose is refused, not dropped",
    '[{"name": "f", "arguments": {}}] Note [a, b is long. [{"name": "g", "arguments": {}}]',
    fail(
      "invalid_shape",
      "another JSON value at 53 holds a call: json-list reads the calls of the first JSON value only (write every call in one list)",
    ),
  ],
  [
    "json-list",
    "prose brackets only",
    "{see below}",
    fail("invalid_json", "the JSON is not JSON: expecting_property_name at 1"),
  ],
  [
    "json-list",
    "arguments as a string",
    '[{"name": "a", "arguments": "{}"}]',
    fail("invalid_shape", "call 0's arguments must be an object, got a string"),
  ],
];

for (const engine of ["ts", "wasm"] as const) {
  Deno.test(`decodeToolCalls() decodes ${ROWS.length} realistic outputs exactly (${engine} engine)`, () => {
    const e = createEngine({ engine });
    const wrong: string[] = [];
    for (const [format, title, output, expected] of ROWS) {
      const got = decodeToolCalls(output, format, { engine: e });
      if (J(got) !== J(expected)) {
        wrong.push(`${format}: ${title}\n  got ${J(got)}\n  not ${J(expected)}`);
      }
    }
    assertEquals(wrong, []);
  });
}

Deno.test("decodeToolCalls() covers every decoder in its table", () => {
  assertEquals([...new Set(ROWS.map((r) => r[0]))].sort(), [...DECODER_NAMES].sort());
});

Deno.test("decodeToolCalls() never reads an Anthropic block as a {name, arguments} call with {} arguments", () => {
  const block = J({
    type: "tool_use",
    id: "toolu_1",
    name: "get_weather",
    input: { city: "Paris" },
  });
  for (const format of ["sommelier", "json-list", "openai-chat", "hermes", "mistral"]) {
    const text = format === "hermes"
      ? `<tool_call>${block}</tool_call>`
      : format === "mistral"
      ? `[TOOL_CALLS][${block}]`
      : block;
    const r = decodeToolCalls(text, format);
    strictEqual(r.status === "invalid_shape", true, `${format}: ${J(r)}`);
    assertEquals(r.calls, []);
    strictEqual(typeof r.reason, "string");
  }
});

Deno.test("pythonic reads a list the same with or without Llama's python tag and end tokens", () => {
  // Every pythonic row without a Llama token, wrapped as Llama 3.x and Llama 4 write it: the list decodes as
  // it does bare (calls, or the same failure and reason), and a text answer stays a text answer.
  const bare = ROWS.filter(([format, , output]) => format === "pythonic" && !output.includes("<|"));
  strictEqual(bare.length >= 6, true);
  for (const [, title, output] of bare) {
    const want = J(decodeToolCalls(output, "pythonic"));
    const wrapped = [`${output}<|eot_id|>`, `${output}<|eom_id|>\n`, ` ${output} <|eot_id|> `];
    wrapped.push(`${output}<|eot|>`, `${output} <|eom|>\n`);
    if (output.trimStart().startsWith("[")) {
      wrapped.push(`<|python_tag|>${output}<|eom_id|>`, `<|python_tag|>\n${output}`);
      wrapped.push(`<|python_start|>${output}<|python_end|><|eot|>`, `<|python_start|>${output}`);
      wrapped.push(` <|python_start|>\n${output} <|python_end|>`);
    }
    for (const text of wrapped) {
      strictEqual(J(decodeToolCalls(text, "pythonic")), want, `${title}: ${J(text)}`);
    }
  }
  for (const text of ["The weather is sunny.", "See [1] below.", "f(x=1)"]) {
    assertEquals(decodeToolCalls(`${text}<|eot_id|>`, "pythonic"), { status: "ok", calls: [] });
    assertEquals(decodeToolCalls(`${text}<|eot|>`, "pythonic"), { status: "ok", calls: [] });
  }
});

Deno.test("getDecoder() takes a name or its versioned id and refuses others", () => {
  strictEqual(getDecoder("openai-chat@3").id, "openai-chat@3");
  strictEqual(getDecoder("pythonic").id, "pythonic@2");
  // pythonic@2 strips Llama's python tag and end tokens; json-list@3 passes over prose brackets.
  throws(() => getDecoder("pythonic@1"), /this release has pythonic@2 /);
  strictEqual(getDecoder("json-list").id, "json-list@3");
  throws(() => getDecoder("json-list@2"), /this release has json-list@3 /);
  throws(() => getDecoder("openai-chat@4"), RangeError);
  // An earlier version is named as such: a report that records it came from another release.
  throws(
    () => getDecoder("openai-chat@2"),
    /^RangeError: Unknown decoder "openai-chat@2": this release has openai-chat@3 /,
  );
  strictEqual(getDecoder("hermes").id, "hermes@2");
  // openai-chat@3 reads Gemini's extra_content; openai-responses@3 refuses an unfinished
  // response; anthropic@4 refuses a message with a Chat Completions message's calls.
  const latest: [string, number][] = [["openai-chat", 3], ["openai-responses", 3], [
    "anthropic",
    4,
  ]];
  for (const [name, version] of latest) {
    strictEqual(getDecoder(name).id, `${name}@${version}`);
    throws(() => getDecoder(`${name}@${version - 1}`), new RegExp(`this release has ${name}@`));
  }
  throws(() => getDecoder("hermez"), /Unknown decoder "hermez".*did you mean hermes\?/);
});

Deno.test("json-list passes over 1 MB of prose brackets handing the engine text in proportion to it", () => {
  // Counted, not timed. Trying the span from every [ or { in turn hands the engine the rest of the
  // text once per bracket: some 10^11 code units for these outputs, against 8 per code unit here.
  const call = '[{"name":"f","arguments":{}}]';
  const later = ' {"name":"g","arguments":{}}';
  const refused = "another JSON value at";
  const unclosed = "the JSON is not balanced: unclosed_span";
  const n = 1 << 19;
  const outputs: [string, DecodeResult["status"], string][] = [
    ["[".repeat(2 * n), "invalid_json", unclosed],
    ["{".repeat(2 * n), "invalid_json", unclosed],
    ["[{".repeat(n), "invalid_json", unclosed],
    ["{[".repeat(n), "invalid_json", unclosed],
    ["[{".repeat(n) + call, "invalid_json", unclosed],
    ["[a".repeat(n) + call, "ok", ""],
    ["{x".repeat(n) + "[ x".repeat(n) + call, "ok", ""],
    ["{ ".repeat(n) + call, "ok", ""],
    [call + " [a".repeat(n) + later, "invalid_shape", refused],
    [call + " {x [y".repeat(n) + later, "invalid_shape", refused],
    // A bracket that can begin JSON and never closes ends the search for later calls (documented).
    [call + " [".repeat(n) + later, "ok", ""],
  ];
  for (const name of ["wasm", "ts"] as const) {
    const engine = createEngine({ engine: name });
    let given = 0;
    const spans = engine.extractSpanBatch.bind(engine);
    engine.extractSpanBatch = (texts) => {
      for (const t of texts) given += t.length;
      return spans(texts);
    };
    for (const [text, status, reason] of outputs) {
      given = 0;
      const r = decodeToolCalls(text, "json-list", { engine });
      const label = `${name} ${J(text.slice(0, 12))}…: ${r.status} ${r.reason}`;
      strictEqual(r.status, status, label);
      strictEqual((r.reason ?? "").startsWith(reason), true, label);
      strictEqual(given <= 8 * text.length + 64, true, `${label}: ${given} for ${text.length}`);
    }
  }
});

Deno.test("json-list and llama3 hand the engine text in proportion to the output, not once per value", () => {
  // Counted, not timed: every code unit the engine's span scan is given, for outputs of many short
  // JSON values. Handing the rest of the text over once per value was quadratic (1 MB of "{}"
  // took seconds).
  for (const name of ["wasm", "ts"] as const) {
    const engine = createEngine({ engine: name });
    let given = 0;
    const spans = engine.extractSpanBatch.bind(engine);
    engine.extractSpanBatch = (texts) => {
      for (const t of texts) given += t.length;
      return spans(texts);
    };
    const outputs: [string, string][] = [
      ["json-list", '{"name":"f","arguments":{}}' + " {}".repeat(20_000)],
      ["json-list", '[{"name":"f","arguments":{}}]' + ' x {"name":"g","arguments":{}}'],
      ["llama3", "<|python_tag|>" + '{"name":"f","parameters":{}};'.repeat(2_000)],
    ];
    for (const [format, text] of outputs) {
      given = 0;
      const r = decodeToolCalls(text, format, { engine });
      strictEqual(r.status === "ok" || r.status === "invalid_shape", true, r.reason);
      strictEqual(
        given <= 8 * text.length + 64,
        true,
        `${name} ${format}: ${given} for ${text.length}`,
      );
    }
  }
});
