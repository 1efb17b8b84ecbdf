// Builds the bundled suite demo (see README.md in this folder). From the repository root:
//
//   deno run --allow-write=samples/suite_demo samples/suite_demo/make_demo.ts [OUT_DIR]
//
// A small analytics semantic layer, eight golden questions, and the traces of two agent arms
// (`base` and `adapter`), three repeats each. Every draw comes from a PRNG seeded by the arm,
// golden and repeat, so the files are byte-identical on every run.
import { Sfc32 } from "../../src/engine/prng.ts";
import type { CatalogView, Golden, Trace, TraceToolCall } from "../../src/suite/types.ts";

const OUT = Deno.args[0] === undefined
  ? new URL("./", import.meta.url)
  : new URL(`file://${Deno.args[0].replace(/\/?$/, "/")}`);

const VIEWS: CatalogView[] = [
  { name: "orders", columns: ["order_id", "customer_id", "order_date", "status", "total_usd"] },
  { name: "order_items", columns: ["order_id", "product_id", "quantity", "unit_price_usd"] },
  { name: "customers", columns: ["customer_id", "name", "country", "signup_date", "segment"] },
  { name: "products", columns: ["product_id", "name", "category", "list_price_usd"] },
  { name: "daily_revenue", columns: ["day", "revenue_usd", "orders"] },
  { name: "monthly_revenue", columns: ["month", "revenue_usd", "orders"] },
  { name: "refunds", columns: ["refund_id", "order_id", "refund_date", "amount_usd"] },
];

interface Plan {
  golden: Golden;
  /** The SQL a careful agent runs, and the rows it gets back. */
  good: { sql: string; rows: Record<string, unknown>[]; answer: string };
  /** A plausible wrong path: the adjacent view, a plausible but wrong number. */
  adjacent: { sql: string; rows: Record<string, unknown>[]; answer: string };
  /** SQL with a hallucinated table or column. */
  hallucinated: string;
}

const PLANS: Plan[] = [
  {
    golden: {
      id: "g01",
      question: "What was total revenue in March 2026?",
      expected_views: ["monthly_revenue"],
      reference_values: { revenue_usd: 1284350.75 },
      reference_answer_text: "Revenue in March 2026 was $1,284,350.75.",
    },
    good: {
      sql: "SELECT revenue_usd FROM monthly_revenue WHERE month = '2026-03'",
      rows: [{ revenue_usd: 1284350.75 }],
      answer: "Total revenue in March 2026 was $1,284,350.75.",
    },
    adjacent: {
      sql: "SELECT SUM(revenue_usd) AS revenue_usd FROM daily_revenue " +
        "WHERE day BETWEEN '2026-03-01' AND '2026-03-30'",
      rows: [{ revenue_usd: 1241902.1 }],
      answer: "Total revenue in March 2026 was about $1.24M.",
    },
    hallucinated: "SELECT total_revenue FROM revenue_by_month WHERE month = '2026-03'",
  },
  {
    golden: {
      id: "g02",
      question: "How many orders were refunded in Q1 2026?",
      expected_views: ["refunds"],
      reference_values: { refunded_orders: 412 },
      reference_answer_text: "412 orders were refunded in Q1 2026.",
    },
    good: {
      sql: "SELECT COUNT(DISTINCT r.order_id) AS refunded_orders FROM refunds r " +
        "WHERE r.refund_date >= '2026-01-01' AND r.refund_date < '2026-04-01'",
      rows: [{ refunded_orders: 412 }],
      answer: "412 orders were refunded in Q1 2026.",
    },
    adjacent: {
      sql: "SELECT COUNT(*) AS refunded_orders FROM orders WHERE status = 'refunded' " +
        "AND order_date >= '2026-01-01' AND order_date < '2026-04-01'",
      rows: [{ refunded_orders: 389 }],
      answer: "389 orders were refunded in Q1 2026.",
    },
    hallucinated: "SELECT COUNT(*) FROM refunds WHERE refund_status = 'done'",
  },
  {
    golden: {
      id: "g03",
      question: "Which product category sold the most units last year?",
      expected_views: ["order_items", "products"],
      reference_values: { category: "Outdoor", units: 18311 },
      reference_answer_text: "Outdoor, with 18,311 units sold in 2025.",
    },
    good: {
      sql: "SELECT p.category, SUM(oi.quantity) AS units FROM order_items oi " +
        "JOIN products p ON p.product_id = oi.product_id JOIN orders o ON o.order_id = oi.order_id " +
        "WHERE o.order_date >= '2025-01-01' AND o.order_date < '2026-01-01' " +
        "GROUP BY p.category ORDER BY units DESC LIMIT 1",
      rows: [{ category: "Outdoor", units: 18311 }],
      answer: "Outdoor sold the most units in 2025: 18,311.",
    },
    adjacent: {
      sql: "SELECT p.category, COUNT(*) AS units FROM order_items oi " +
        "JOIN products p USING (product_id) GROUP BY p.category ORDER BY units DESC LIMIT 1",
      rows: [{ category: "Kitchen", units: 9120 }],
      answer: "Kitchen was the top category with 9,120 units.",
    },
    hallucinated: "SELECT category, SUM(units_sold) FROM product_sales GROUP BY category",
  },
  {
    golden: {
      id: "g04",
      question: "What share of revenue came from enterprise customers in 2025?",
      expected_views: ["orders", "customers"],
      reference_values: { enterprise_share: 0.4137 },
      reference_answer_text: "Enterprise customers brought 41.4% of 2025 revenue.",
    },
    good: {
      sql: "WITH rev AS (SELECT c.segment, SUM(o.total_usd) AS revenue FROM orders o " +
        "JOIN customers c ON c.customer_id = o.customer_id " +
        "WHERE o.order_date >= '2025-01-01' AND o.order_date < '2026-01-01' GROUP BY c.segment) " +
        "SELECT SUM(CASE WHEN segment = 'enterprise' THEN revenue END) / SUM(revenue) " +
        "AS enterprise_share FROM rev",
      rows: [{ enterprise_share: 0.41370002 }],
      answer: "Enterprise customers accounted for about 41.4% of revenue in 2025.",
    },
    adjacent: {
      sql: "SELECT COUNT(*) FILTER (WHERE segment = 'enterprise')::float / COUNT(*) " +
        "AS enterprise_share FROM customers",
      rows: [{ enterprise_share: 0.118 }],
      answer: "About 11.8% of revenue came from enterprise customers.",
    },
    hallucinated: "SELECT SUM(o.total_usd) FROM orders o WHERE o.customer_segment = 'enterprise'",
  },
  {
    golden: {
      id: "g05",
      question: "How did daily orders trend over the last week of March 2026?",
      expected_views: ["daily_revenue"],
      reference_answer_text:
        "Daily orders rose from about 410 to 530 over 25–31 March 2026, peaking on the 30th.",
    },
    good: {
      sql:
        "SELECT day, orders FROM daily_revenue WHERE day BETWEEN '2026-03-25' AND '2026-03-31' " +
        "ORDER BY day",
      rows: [
        { day: "2026-03-25", orders: 412 },
        { day: "2026-03-28", orders: 467 },
        { day: "2026-03-30", orders: 541 },
        { day: "2026-03-31", orders: 529 },
      ],
      answer: "Orders climbed from 412 on 25 March to a peak of 541 on the 30th, then 529.",
    },
    adjacent: {
      sql: "SELECT order_date, COUNT(*) AS orders FROM orders WHERE order_date >= '2026-03-25' " +
        "GROUP BY order_date ORDER BY order_date",
      rows: [{ order_date: "2026-03-25", orders: 398 }, { order_date: "2026-03-31", orders: 515 }],
      answer: "Orders were roughly flat at around 400–500 a day.",
    },
    hallucinated: "SELECT day, order_count FROM daily_orders WHERE day >= '2026-03-25'",
  },
  {
    golden: {
      id: "g06",
      question: "Which country has the most customers who signed up in 2026?",
      expected_views: ["customers"],
      reference_values: { country: "DE", customers: 2210 },
      reference_answer_text: "Germany, with 2,210 new customers in 2026.",
    },
    good: {
      sql:
        "SELECT country, COUNT(*) AS customers FROM customers WHERE signup_date >= '2026-01-01' " +
        "GROUP BY country ORDER BY customers DESC LIMIT 1",
      rows: [{ country: "DE", customers: 2210 }],
      answer: "Germany (DE) leads with 2,210 customers who signed up in 2026.",
    },
    adjacent: {
      sql: "SELECT country, COUNT(*) AS customers FROM customers GROUP BY country " +
        "ORDER BY customers DESC LIMIT 1",
      rows: [{ country: "US", customers: 15873 }],
      answer: "The US has the most customers: 15,873.",
    },
    hallucinated:
      "SELECT c.country, COUNT(*) FROM customers c WHERE c.created_at >= '2026-01-01' " +
      "GROUP BY c.country",
  },
  {
    golden: {
      id: "g07",
      question: "What is the average order value for orders with more than three items?",
      expected_views: ["orders", "order_items"],
      reference_values: { avg_order_value_usd: 187.42 },
    },
    good: {
      sql: "SELECT AVG(o.total_usd) AS avg_order_value_usd FROM orders o WHERE o.order_id IN " +
        "(SELECT order_id FROM order_items GROUP BY order_id HAVING SUM(quantity) > 3)",
      rows: [{ avg_order_value_usd: 187.4199 }],
      answer: "Orders with more than three items average $187.42.",
    },
    adjacent: {
      sql: "SELECT AVG(total_usd) AS avg_order_value_usd FROM orders",
      rows: [{ avg_order_value_usd: 96.31 }],
      answer: "The average order value is $96.31.",
    },
    hallucinated: "SELECT AVG(order_value) FROM orders WHERE item_count > 3",
  },
  {
    golden: {
      id: "g08",
      question: "List the three best-selling products by revenue in 2026 so far.",
      expected_views: ["order_items", "products", "orders"],
      reference_answer_text: "Trail Tent 2P, Camp Stove Pro and Down Sleeping Bag, in that order.",
    },
    good: {
      sql: "SELECT p.name, SUM(oi.quantity * oi.unit_price_usd) AS revenue FROM order_items oi " +
        "JOIN products p ON p.product_id = oi.product_id " +
        "JOIN orders o ON o.order_id = oi.order_id WHERE o.order_date >= '2026-01-01' " +
        "GROUP BY p.name ORDER BY revenue DESC LIMIT 3",
      rows: [
        { name: "Trail Tent 2P", revenue: 210450 },
        { name: "Camp Stove Pro", revenue: 188020.5 },
        { name: "Down Sleeping Bag", revenue: 171300 },
      ],
      answer: "Trail Tent 2P, Camp Stove Pro and Down Sleeping Bag lead 2026 revenue.",
    },
    adjacent: {
      sql: "SELECT name, list_price_usd FROM products ORDER BY list_price_usd DESC LIMIT 3",
      rows: [{ name: "Canoe 16ft", list_price_usd: 1899 }],
      answer: "Canoe 16ft is the best seller.",
    },
    hallucinated: "SELECT product_name, revenue FROM product_revenue_2026 ORDER BY revenue DESC",
  },
];

/** Per arm: chances of [hallucinated SQL, the adjacent view, a repeated call, hitting the limit]. */
const RATES: Record<string, [number, number, number, number]> = {
  base: [0.2, 0.3, 0.35, 0.12],
  adapter: [0.06, 0.15, 0.12, 0.04],
};

function seedOf(text: string): number {
  // FNV-1a, 32-bit.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function trace(plan: Plan, arm: string, repeat: number): Trace {
  const rng = new Sfc32(seedOf(`assay-suite-demo/v1/${arm}/${plan.golden.id}/${repeat}`));
  const chance = (p: number) => rng.nextUint32() / 2 ** 32 < p;
  const [pHall, pAdj, pLoop, pLimit] = RATES[arm]!;
  const calls: TraceToolCall[] = [{
    name: "list_views",
    arguments: {},
    result: VIEWS.map((v) => v.name),
  }];
  const sql: string[] = [];
  const views = plan.golden.expected_views ?? [];
  for (const v of views) {
    calls.push({ name: "describe_view", arguments: { view: v }, result: { ok: true } });
  }
  if (chance(pLoop)) {
    // The agent loses track and describes the same view again.
    calls.push({
      name: "describe_view",
      arguments: { view: views[0] ?? "orders" },
      result: { ok: true },
    });
  }
  if (chance(pHall)) {
    sql.push(plan.hallucinated);
    calls.push({
      name: "run_sql",
      arguments: JSON.stringify({ query: plan.hallucinated }),
      error: "relation or column does not exist",
    });
  }
  if (chance(pLimit)) {
    if (chance(0.5)) {
      sql.push(plan.hallucinated);
      calls.push({
        name: "run_sql",
        arguments: JSON.stringify({ query: plan.hallucinated }),
        error: "relation or column does not exist",
      });
    }
    return {
      golden_id: plan.golden.id,
      arm,
      repeat,
      tool_calls: calls,
      sql,
      final_rows: null,
      final_answer: null,
      submitted: false,
      hit_turn_limit: true,
    };
  }
  const path = chance(pAdj) ? plan.adjacent : plan.good;
  sql.push(path.sql);
  calls.push({ name: "run_sql", arguments: { query: path.sql }, result: { rows: path.rows } });
  calls.push({ name: "submit_answer", arguments: { answer: path.answer } });
  return {
    golden_id: plan.golden.id,
    arm,
    repeat,
    tool_calls: calls,
    sql,
    final_rows: path.rows,
    final_answer: path.answer,
    submitted: true,
    hit_turn_limit: false,
  };
}

const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
/** The topic of a golden (the clusters of the repeats' standard errors), by its first view. */
const TOPICS: Record<string, string> = {
  monthly_revenue: "revenue",
  daily_revenue: "revenue",
  refunds: "refunds",
  order_items: "products",
  orders: "orders",
  customers: "customers",
};

/** The golden with its topic and the trajectory a careful agent follows (`trajectory_match`). */
function withTrajectory(plan: Plan): Golden & { topic: string } {
  const views = plan.golden.expected_views ?? [];
  return {
    ...plan.golden,
    topic: TOPICS[views[0]!]!,
    reference_trajectory: [
      { name: "list_views", arguments: {} },
      ...views.map((view) => ({ name: "describe_view", arguments: { view } })),
      { name: "run_sql", arguments: { query: plan.good.sql } },
      { name: "submit_answer", arguments: { answer: plan.good.answer } },
    ],
  };
}

await Deno.writeTextFile(new URL("goldens.jsonl", OUT), lines(PLANS.map(withTrajectory)));
await Deno.writeTextFile(
  new URL("catalog.json", OUT),
  JSON.stringify({ views: VIEWS }, null, 2) + "\n",
);
const traces: Trace[] = [];
for (const arm of ["base", "adapter"]) {
  for (const plan of PLANS) for (let r = 0; r < 3; r++) traces.push(trace(plan, arm, r));
}
await Deno.writeTextFile(new URL("traces.jsonl", OUT), lines(traces));
console.log(`wrote ${PLANS.length} goldens, ${VIEWS.length} views, ${traces.length} traces`);
