/**
 * The shapes of the calls the tool-call metrics take (`tool_metrics.ts`), and how a predicted call
 * matches an expected one.
 *
 * @module
 */

/** One tool call as given to the metrics; other shapes count as invalid predicted calls. */
export type ToolCallInput =
  | { name: string; arguments?: { [key: string]: unknown } | string }
  | {
    type?: "function";
    id?: string;
    function: { name: string; arguments?: { [key: string]: unknown } | string };
  }
  | {
    type: "tool_use";
    id?: string;
    name: string;
    input: { [key: string]: unknown } | string;
    cache_control?: unknown;
    caller?: unknown;
  };

/** A block of an Anthropic message's content that is no call (text, thinking, a tool's result). */
export type NoCallBlock = {
  type: "text" | "thinking" | "redacted_thinking" | `${string}_tool_result`;
  [key: string]: unknown;
};

/** One example's calls: a call or a list of calls (possibly empty; a message's `content`). */
export type ToolCallsEntry = ToolCallInput | NoCallBlock | readonly (ToolCallInput | NoCallBlock)[];

/**
 * How a predicted call matches an expected one: `exact` (same tool, same canonical
 * arguments), `name` (same tool, arguments ignored) or `subset` (same tool, and the
 * predicted arguments contain every flattened pair of the expected arguments).
 */
export type ToolCallMatch = "exact" | "name" | "subset";
