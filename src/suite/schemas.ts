/**
 * JSON Schemas (draft 2020-12) of a suite run's inputs: goldens, the schema catalog and the
 * traces. They document the formats, and the readers and `runSuite` validate every golden, trace
 * and catalog with the project's own validator before scoring. A golden or a trace may carry keys
 * of its own beside its fields; the readers (`readGoldens`, `readTraces`) and `runSuite`, given
 * rows in memory, refuse one that misspells a field the row does not give, which the schemas
 * alone let through.
 *
 * @module
 */

/** One line of the goldens JSONL ({@linkcode Golden}). */
export const GOLDEN_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://assay.dev/schemas/golden.json",
  title: "Golden",
  type: "object",
  required: ["id", "question"],
  properties: {
    id: { type: "string", minLength: 1, description: "Unique id; traces point at it" },
    question: { type: "string", description: "The question (the judge's `input`)" },
    expected_views: {
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      description: "Views the agent needs to touch (expected_view_recall)",
    },
    reference_values: {
      type: "object",
      additionalProperties: { type: ["number", "string", "boolean", "null"] },
      description: "Column name to the value the final query must return (reference_value_match)",
    },
    reference_answer_text: { type: "string", description: "The reference answer" },
    reference_trajectory: {
      type: "array",
      items: { type: "object" },
      description: "Calls, or messages {role, tool_calls?, content?, function_call?} in strict " +
        "mode (trajectory_match): see TrajectoryCall and TrajectoryMessage",
    },
  },
} as const;

/** The schema catalog file ({@linkcode SchemaCatalog}). */
export const CATALOG_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://assay.dev/schemas/catalog.json",
  title: "SchemaCatalog",
  type: "object",
  required: ["views"],
  properties: {
    views: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "columns"],
        properties: {
          name: { type: "string", minLength: 1 },
          columns: { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true },
          description: { type: "string" },
        },
        additionalProperties: false,
      },
    },
  },
} as const;

/** One line of the traces JSONL: one (golden, arm, repeat) run ({@linkcode Trace}). */
export const TRACE_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://assay.dev/schemas/trace.json",
  title: "Trace",
  type: "object",
  required: [
    "golden_id",
    "arm",
    "repeat",
    "tool_calls",
    "sql",
    "final_rows",
    "final_answer",
    "submitted",
    "hit_turn_limit",
  ],
  properties: {
    golden_id: { type: "string", minLength: 1 },
    arm: { type: "string", minLength: 1 },
    repeat: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    tool_calls: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1 },
          arguments: { type: ["object", "string"] },
          input: { type: "object", description: "An Anthropic tool_use block's arguments" },
          args: { type: "object", description: "A LangChain tool call's arguments" },
          function: {
            type: "object",
            required: ["name", "arguments"],
            properties: {
              name: { type: "string", minLength: 1 },
              arguments: { type: ["object", "string"] },
            },
            additionalProperties: false,
            description: "An OpenAI Chat Completions call's name and arguments",
          },
          type: {
            type: "string",
            // The metrics' server_calls param decides what a server's call is; another type
            // ending in _tool_use, or LangChain's invalid_tool_call, is never read.
            not: {
              anyOf: [
                { pattern: "_tool_use$", not: { enum: ["server_tool_use", "mcp_tool_use"] } },
                { const: "invalid_tool_call" },
              ],
            },
            description: "Not LangChain's invalid_tool_call nor a *_tool_use type other than " +
              "Anthropic's server_tool_use and mcp_tool_use (see the metrics' server_calls)",
          },
          server_name: {
            type: "string",
            minLength: 1,
            not: { pattern: "__" },
            description: "An mcp_tool_use block's MCP server",
          },
          id: { type: ["string", "null"] },
          call_id: { type: "string" },
          status: { type: "string" },
          result: true,
          error: { type: ["string", "null"] },
          caller: {
            description: 'An Anthropic block\'s caller ({type: "direct"}, or a server tool ' +
              "such as code execution), which current SDKs write on every block; not read",
          },
          cache_control: { description: "An Anthropic block's prompt-cache mark; not read" },
          parsed_arguments: { description: "Added by the OpenAI SDK's .parse(); not read" },
          namespace: {
            type: "null",
            description: "An OpenAI Responses item's tool group: a group's name would scope the " +
              "call's name, which is not read, so only null is taken",
          },
        },
        additionalProperties: false,
        // A call held both under function and beside it is ambiguous, as the metrics read it.
        dependentSchemas: {
          function: { properties: { name: false, arguments: false, input: false, args: false } },
        },
        // An MCP tool's call names its server; no other call has one.
        if: { required: ["type"], properties: { type: { const: "mcp_tool_use" } } },
        then: { required: ["server_name"] },
        else: { properties: { server_name: false } },
        oneOf: [
          { required: ["name", "arguments"] },
          { required: ["name", "input"] },
          { required: ["name", "args"] },
          { required: ["function"] },
        ],
        description: "A call {name, arguments}, {function: {name, arguments}} (OpenAI), " +
          '{type: "tool_use", name, input} (Anthropic) or {name, args} (LangChain); a server\'s ' +
          'call {type: "server_tool_use", name, input} or {type: "mcp_tool_use", server_name, ' +
          "name, input} (Anthropic) is refused, read or skipped by the metrics' server_calls",
      },
    },
    sql: { type: "array", items: { type: "string" } },
    final_rows: { type: ["array", "null"], items: { type: "object" } },
    final_answer: { type: ["string", "null"] },
    submitted: { type: "boolean" },
    hit_turn_limit: { type: "boolean" },
    messages: {
      type: "array",
      items: {
        type: "object",
        anyOf: [
          { required: ["role"], properties: { role: { type: "string" } } },
          {
            required: ["type"],
            properties: {
              type: {
                enum: [
                  "ai",
                  "human",
                  "system",
                  "tool",
                  "function",
                  "AIMessageChunk",
                  "HumanMessageChunk",
                  "SystemMessageChunk",
                  "ToolMessageChunk",
                  "FunctionMessageChunk",
                ],
              },
            },
          },
        ],
      },
      description: "The run's messages {role, tool_calls?, content?, function_call?}, or " +
        "LangChain's {type, ...} (trajectory_match in strict mode)",
    },
  },
} as const;
