// A held-out-style corpus for `assay score`, written independently of _score_corpus.ts so that the
// engine can be measured on data it was not tuned for.
//
// Every example is built from its own seeded streams (one per concern: identity, root link, gold
// target, gold spelling, prompt, generation), so any example can be rebuilt on its own, in any
// order. The three files are written in three passes over the examples: examples.jsonl in example
// order, prompts.jsonl and generations.jsonl each in their own shuffled order, each streamed to disk
// in batches.
//
// Gold arguments and model outputs are trees whose numbers keep their lexemes, spelled to text by
// this file's own writer (compact, spaced or pretty-printed; non-ASCII raw or escaped; `\/` or `/`),
// so a float written `1E+2` or `1.0` reaches the file exactly so. Outputs are derived from the gold:
// right, respelled, wrong in places, broken JSON, wrong shapes, or prose.
//
// No row is an input error and no invariant breaks: every line is one valid JSON object of the right
// shape, every kept example has exactly one generation, and the manifest covers every example.
//
// At 100,000 examples (seed 20240611): 26.6 MB of examples, 41.2 MB of generations (outputs of 255 B
// on average, p99 0.8 KB, max 4 KB), 33.4 MB of prompts (text in 70% of rows, median 234 B, max
// 2.9 KB): 101 MB. About 30 MB of that is fixed per row (ids, keys, 64-hex digests in two files);
// the prompt texts (`promptText`, and the 0.7 in `prompt`) are the knob for a smaller corpus.
import { createHash } from "node:crypto";

/** Options for {@linkcode writeVariedCorpus}. */
export interface VariedCorpusOptions {
  /** Seed: the same options give byte-identical files. */
  seed: number;
  /** Number of example rows (dropped targets included). */
  count: number;
  /** Write prompts.jsonl, the formatter's manifest (default true). */
  prompts?: boolean;
  /**
   * Called once per generation of a kept example with the parse status the generator meant and
   * the generator kind (`"ok/respelled"`, `"invalid_json/truncated"`, …). For tests; not written.
   */
  trace?: (exampleId: string, status: string, kind: string) => void;
  /**
   * Share of the outputs that are one JSON object or array in strict JSON (nothing around them
   * but whitespace, no lone surrogate) written into the line as that value itself, as an API's
   * whole response is, instead of as a string (default 0: no draw is made, so the other files of
   * a seed stay the same bytes).
   */
  wholeOutputs?: number;
}

/** What {@linkcode writeVariedCorpus} wrote. */
export interface VariedCorpusFiles {
  examples: string;
  generations: string;
  /** Present when `prompts` was not false. */
  prompts?: string;
  /** Example rows, generation rows, dropped examples. */
  rows: { examples: number; generations: number; dropped: number };
  /** Intended share of each parse status among kept examples (the generator's weights). */
  statusShare: Record<string, number>;
  /** File sizes in bytes (prompts is 0 without a manifest). */
  bytes: { examples: number; generations: number; prompts: number };
}

// ------------------------------------------------------------------ seeded streams (sfc32)

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small seeded generator (sfc32), one per (seed, example, concern). */
class Dice {
  #a: number;
  #b: number;
  #c: number;
  #d = 1;

  constructor(seed: number, index: number, stream: number) {
    this.#a = fmix((seed >>> 0) ^ 0x9e3779b9);
    this.#b = fmix(Math.imul(index + 1, 0x27d4eb2f) ^ fmix(seed + 0x165667b1));
    this.#c = fmix(Math.imul(stream + 7, 0x61c88647) ^ this.#b ^ (index >>> 16));
    for (let k = 0; k < 10; k++) this.u32();
  }

  u32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }

  /** One of `table`'s items, with probability proportional to its weight. */
  weighted<T>(table: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of table) total += w;
    let x = this.next() * total;
    for (const [v, w] of table) {
      x -= w;
      if (x < 0) return v;
    }
    return table[table.length - 1]![0];
  }

  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = xs[i]!;
      xs[i] = xs[j]!;
      xs[j] = t;
    }
    return xs;
  }
}

const S_META = 1, S_ROOT = 2, S_TARGET = 3, S_SPELL = 4, S_PROMPT = 5, S_GEN = 6;
const S_ORDER_GEN = 90, S_ORDER_PROMPT = 91;

// ------------------------------------------------------------------ languages and their texts

type Lang = "en" | "de" | "fr" | "es" | "ja" | "zh" | "ar" | "hi" | "ru" | "pt";

const LANG_SHARE: readonly (readonly [Lang, number])[] = [
  ["en", 28],
  ["es", 12],
  ["de", 10],
  ["fr", 10],
  ["zh", 9],
  ["ja", 8],
  ["ru", 7],
  ["pt", 6],
  ["ar", 5],
  ["hi", 5],
];

interface Pack {
  /** Short texts a tool argument may hold (titles, notes, queries). */
  phrases: readonly string[];
  cities: readonly string[];
  /** Prose a model writes before a call: never holds `{` or `[`. */
  before: readonly string[];
  /** Prose after a call (anything). */
  after: readonly string[];
  /** Replies with no JSON at all: never hold `{` or `[`. */
  replies: readonly string[];
  /** How a user opens a request, for prompts. */
  asks: readonly string[];
  system: string;
  /** The non-ASCII word of ids like `fr-é-12`. */
  idWord: string;
}

const PACKS: Record<Lang, Pack> = {
  en: {
    phrases: [
      "Team sync about the Q3 roadmap",
      "Book a table for two near the river",
      "Remind me to call Mom",
      "Quarterly report — final draft",
      'Dinner at "Chez Léon" at 8',
      "Line one\nLine two",
      "C:\\Users\\ana\\notes.txt",
      "Flight AA 100 to JFK",
      "Café latte ☕ x2",
      "Call the plumber about the leak 🚰",
      "Agenda:\n1. Budget\n2. Hiring\n3. AOB",
      "tab\tseparated\tvalues",
      "50% off — today only!",
      "naïve résumé for the coöperative",
    ],
    cities: ["New York", "San Francisco", "London", "Chicago", "Austin", "Seattle"],
    before: [
      "Sure, here is the call:",
      "I'll look that up for you.",
      "Calling the tool now.",
      "Here you go:",
      "Let me check that first.",
      "Understood. Using the tool:",
      "Okay!",
      "The right tool for this is the following one:",
      "Thought: the user wants a concrete action, so I will call a function.",
    ],
    after: [
      "Let me know if you need anything else.",
      "I can also adjust the dates if you want [optional].",
      "Note: prices may change {until confirmed}.",
      "Hope this helps!",
      "(The result will follow.)",
    ],
    replies: [
      "I'm sorry, but I can't help with that request.",
      "Could you tell me which city you mean?",
      "The meeting has been scheduled. Anything else?",
      "I don't have access to real-time data, so I can't check that right now.",
      "Sure! Before I do that: what date works best for you?",
      "Done :-) The results are in your inbox.",
    ],
    asks: [
      "Can you help me with this?",
      "Please take care of the following.",
      "I need this today.",
    ],
    system: "You are a helpful assistant. You can call the tools listed below.",
    idWord: "x",
  },
  de: {
    phrases: [
      "Besprechung über das Budget",
      "Straße gesperrt wegen Bauarbeiten",
      "Größe: XL, Farbe: Grün",
      "Bitte um Rückruf bis Freitag",
      "Übermorgen früh um 7 Uhr",
      "Äpfel, Birnen und Möhren kaufen",
      "„Zitat“ aus dem Protokoll",
    ],
    cities: ["München", "Köln", "Düsseldorf", "Berlin", "Zürich", "Würzburg"],
    before: [
      "Gerne, hier ist der Aufruf:",
      "Ich rufe das Werkzeug auf.",
      "Einen Moment, ich prüfe das:",
      "Alles klar – hier:",
    ],
    after: [
      "Sag Bescheid, wenn du noch etwas brauchst.",
      "Die Daten sind ohne Gewähr [Stand: heute].",
    ],
    replies: [
      "Das kann ich leider nicht beantworten.",
      "Welche Stadt meinst du genau?",
      "Ich habe keinen Zugriff auf Echtzeitdaten.",
    ],
    asks: ["Kannst du mir helfen?", "Bitte erledige Folgendes.", "Ich brauche das bis morgen."],
    system: "Du bist ein hilfreicher Assistent. Du kannst die folgenden Werkzeuge aufrufen.",
    idWord: "ü",
  },
  fr: {
    phrases: [
      "Réunion d'équipe à 14 h",
      "Réserver une table près de la tour Eiffel",
      "Crème brûlée pour le dessert",
      "Rappel : payer la facture d'électricité",
      "« Le Petit Prince » en édition de poche",
      "Où est la gare ?",
      "Cœur d'artichaut, œufs brouillés",
    ],
    cities: ["Paris", "Montréal", "Lyon", "Genève", "Bruxelles", "Besançon"],
    before: [
      "Bien sûr, voici l'appel :",
      "Je lance la recherche.",
      "D'accord ! J'utilise l'outil suivant :",
    ],
    after: [
      "N'hésitez pas si vous avez d'autres questions.",
      "Les horaires peuvent changer [à vérifier].",
    ],
    replies: [
      "Désolé, je ne peux pas répondre à cette demande.",
      "Pouvez-vous préciser la date ?",
      "Je n'ai pas accès à la météo en temps réel.",
    ],
    asks: ["Peux-tu m'aider ?", "Merci de t'occuper de ceci.", "J'en ai besoin aujourd'hui."],
    system: "Tu es un assistant serviable. Tu peux appeler les outils ci-dessous.",
    idWord: "é",
  },
  es: {
    phrases: [
      "Reservar mesa para dos en el centro",
      "Cumpleaños de la abuela 🎂",
      "Comprar pan, leche y café",
      "¿Cuál es el pronóstico para mañana?",
      "Niño con mochila azul",
      "Reunión con el señor Núñez",
    ],
    cities: ["Madrid", "Ciudad de México", "Bogotá", "Sevilla", "Buenos Aires", "A Coruña"],
    before: [
      "¡Claro! Aquí está la llamada:",
      "Voy a buscarlo ahora mismo.",
      "Perfecto, uso la herramienta:",
    ],
    after: ["¿Necesitas algo más?", "Los precios pueden variar {según temporada}."],
    replies: [
      "Lo siento, no puedo ayudar con eso.",
      "¿Podrías indicarme la ciudad?",
      "No tengo acceso a datos en tiempo real.",
    ],
    asks: ["¿Me ayudas con esto?", "Por favor, encárgate de lo siguiente.", "Lo necesito hoy."],
    system: "Eres un asistente útil. Puedes llamar a las herramientas de abajo.",
    idWord: "ñ",
  },
  pt: {
    phrases: [
      "Reservar voo para Lisboa",
      "Reunião às 9h com a diretoria",
      "Pão de queijo e café",
      "Não esquecer o guarda-chuva ☔",
      "Ação de graças em família",
    ],
    cities: ["São Paulo", "Lisboa", "Rio de Janeiro", "Porto", "Brasília", "Maceió"],
    before: ["Claro, aqui está a chamada:", "Vou consultar a ferramenta.", "Certo! Usando:"],
    after: ["Posso ajudar em mais alguma coisa?", "Valores sujeitos a alteração [consulte]."],
    replies: ["Desculpe, não posso ajudar com isso.", "Qual cidade você quer dizer?"],
    asks: ["Pode me ajudar?", "Por favor, faça o seguinte.", "Preciso disso hoje."],
    system: "Você é um assistente prestativo. Você pode chamar as ferramentas abaixo.",
    idWord: "ç",
  },
  ja: {
    phrases: [
      "会議室を予約してください",
      "東京駅で午後3時に待ち合わせ",
      "牛乳と卵を買う",
      "明日の天気は？☀️",
      "「吾輩は猫である」を検索",
      "新宿区西新宿2-8-1",
    ],
    cities: ["東京", "大阪", "京都", "札幌", "福岡", "那覇"],
    before: [
      "承知しました。以下のツールを呼び出します：",
      "天気を確認します。",
      "はい、検索します。",
    ],
    after: ["他にご用件はありますか？", "※ 料金は変更される場合があります [要確認]。"],
    replies: [
      "申し訳ありませんが、その質問にはお答えできません。",
      "どの都市のことですか？",
      "【お知らせ】リアルタイムの情報にはアクセスできません。",
    ],
    asks: ["手伝ってもらえますか？", "次のことをお願いします。", "今日中に必要です。"],
    system: "あなたは役に立つアシスタントです。以下のツールを呼び出せます。",
    idWord: "例",
  },
  zh: {
    phrases: [
      "预订明天上午十点的会议室",
      "北京到上海的高铁票",
      "买牛奶、鸡蛋和面包",
      "提醒我给妈妈打电话 📞",
      "《红楼梦》精装版",
      "深圳市南山区科技园",
    ],
    cities: ["北京", "上海", "广州", "深圳", "成都", "乌鲁木齐"],
    before: ["好的，这是函数调用：", "我来帮你查询一下。", "明白，正在调用工具："],
    after: ["还需要别的帮助吗？", "注意：价格可能有变动［仅供参考］。"],
    replies: [
      "抱歉，我无法回答这个问题。",
      "请问您指的是哪个城市？",
      "｛系统｝当前无法访问实时数据。",
    ],
    asks: ["你能帮我吗？", "请帮我处理以下事项。", "我今天就需要。"],
    system: "你是一个乐于助人的助手。你可以调用下面列出的工具。",
    idWord: "例子",
  },
  ar: {
    phrases: [
      "احجز طاولة لشخصين",
      "اجتماع الفريق يوم الأحد",
      "شراء الخبز والحليب",
      "ما حالة الطقس غدًا؟",
      "مرحبا بالعالم 🌍",
      "\u200fالعنوان: شارع 12\u200f",
    ],
    cities: ["القاهرة", "دبي", "الرياض", "الدار البيضاء", "عمّان", "تونس"],
    before: ["بالتأكيد، إليك الاستدعاء:", "سأبحث عن ذلك الآن.", "حسنًا، سأستخدم الأداة التالية:"],
    after: ["هل تحتاج إلى أي شيء آخر؟", "قد تتغير الأسعار [يرجى التحقق]."],
    replies: ["عذرًا، لا يمكنني المساعدة في هذا الطلب.", "أي مدينة تقصد؟"],
    asks: ["هل يمكنك مساعدتي؟", "من فضلك قم بما يلي.", "أحتاج هذا اليوم."],
    system: "أنت مساعد مفيد. يمكنك استدعاء الأدوات المدرجة أدناه.",
    idWord: "مثال",
  },
  hi: {
    phrases: [
      "कल सुबह 7 बजे अलार्म लगाओ",
      "दिल्ली से मुंबई की उड़ान",
      "दूध और ब्रेड खरीदना",
      "मौसम कैसा रहेगा?",
      "नमस्ते दुनिया 🙏",
    ],
    cities: ["दिल्ली", "मुंबई", "बेंगलुरु", "कोलकाता", "जयपुर"],
    before: ["ज़रूर, यह रहा कॉल:", "मैं अभी जाँच करता हूँ।"],
    after: ["क्या आपको और कुछ चाहिए?"],
    replies: ["क्षमा करें, मैं इसमें मदद नहीं कर सकता।", "आप किस शहर की बात कर रहे हैं?"],
    asks: ["क्या आप मेरी मदद कर सकते हैं?", "कृपया यह काम कर दीजिए।"],
    system: "आप एक सहायक हैं। आप नीचे दिए गए टूल कॉल कर सकते हैं।",
    idWord: "उदाहरण",
  },
  ru: {
    phrases: [
      "Забронировать столик на двоих",
      "Встреча с командой в 10:00",
      "Купить хлеб, молоко и яйца",
      "Какая погода завтра?",
      "Ёлка во дворе 🎄",
    ],
    cities: ["Москва", "Санкт-Петербург", "Новосибирск", "Казань", "Екатеринбург"],
    before: ["Конечно, вот вызов:", "Сейчас проверю.", "Хорошо, использую инструмент:"],
    after: ["Нужно что-нибудь ещё?", "Цены могут измениться [уточняйте]."],
    replies: ["Извините, я не могу с этим помочь.", "Какой город вы имеете в виду?"],
    asks: ["Можешь помочь?", "Пожалуйста, сделай следующее.", "Мне это нужно сегодня."],
    system: "Ты полезный ассистент. Ты можешь вызывать перечисленные ниже инструменты.",
    idWord: "пример",
  },
};

for (const pack of Object.values(PACKS)) {
  for (const t of [...pack.before, ...pack.replies]) {
    if (/[{[]/.test(t)) throw new Error(`prose that must hold no JSON opener does: ${t}`);
  }
}

// ------------------------------------------------------------------ JSON trees with exact lexemes

type Lit = "true" | "false" | "null" | "NaN" | "Infinity" | "-Infinity";
type Json =
  | { t: "obj"; m: [string, Json][] }
  | { t: "arr"; v: Json[] }
  | { t: "str"; s: string; cat?: "text" | "city" }
  | { t: "num"; x: string }
  | { t: "lit"; x: Lit }
  /** Written verbatim: fragments that are not JSON. */
  | { t: "raw"; x: string };
type Obj = Extract<Json, { t: "obj" }>;
type Arr = Extract<Json, { t: "arr" }>;

const obj = (m: [string, Json][]): Obj => ({ t: "obj", m });
const arr = (v: Json[]): Arr => ({ t: "arr", v });
const str = (
  s: string,
  cat?: "text" | "city",
): Json => (cat ? { t: "str", s, cat } : { t: "str", s });
const num = (x: string | number): Json => ({ t: "num", x: String(x) });
const lit = (x: Lit): Json => ({ t: "lit", x });

function clone(v: Json): Json {
  switch (v.t) {
    case "obj":
      return obj(v.m.map(([k, x]) => [k, clone(x)]));
    case "arr":
      return arr(v.v.map(clone));
    default:
      return { ...v };
  }
}

interface Call {
  name: string;
  args: Obj;
}

// ------------------------------------------------------------------ numbers

/** Float lexemes chosen for their edges. */
const EDGE_FLOATS = [
  "5e-324",
  "1e22",
  "1e23",
  "0.30000000000000004",
  "2.2250738585072014e-308",
  "1.7976931348623157e308",
  "1.0",
  "-0.0",
  "1E+2",
  "0.1e1",
  "0.1",
  "1e-7",
  "1e16",
  "1e-5",
  "0.0001",
  "9007199254740993.0",
  "4.9406564584124654e-324",
  "2.225073858507201e-308",
  "1e21",
  "123456789012345680000.0",
  "6.02214076e23",
  "6.62607015e-34",
  "1.602176634e-19",
  "2.718281828459045",
  "3.141592653589793",
  "1.0000000000000002",
  "0.9999999999999999",
  "4503599627370496.5",
  "1e-323",
  "2.5e-324",
  "8.98846567431158e307",
  "1.7976931348623157E+308",
  "100.0",
  "0.5",
  "1e400",
  "-1e-400",
  "0.000001",
  "1.5",
  "2.50",
  "1.0e-0",
];

const scratch = new DataView(new ArrayBuffer(8));

/** Any finite double, from random bits (so subnormals and every exponent occur). */
function anyDouble(d: Dice): number {
  for (;;) {
    scratch.setUint32(0, d.u32());
    scratch.setUint32(4, d.u32());
    const x = scratch.getFloat64(0);
    if (Number.isFinite(x)) return x;
  }
}

function mantissa(d: Dice): number {
  return 1 + d.next() * 9;
}

/** A float lexeme of any magnitude and spelling. */
function floatLex(d: Dice): string {
  let s: string;
  switch (d.int(12)) {
    case 0:
    case 1:
      s = d.pick(EDGE_FLOATS);
      break;
    case 2:
      s = String(anyDouble(d));
      break;
    case 3:
      s = String(mantissa(d) * 10 ** d.range(-30, 30));
      break;
    case 4:
      s = (mantissa(d) * 10 ** d.range(-12, 12)).toExponential(d.int(18));
      break;
    case 5:
      s = (d.next() * 10 ** d.range(0, 8)).toFixed(d.range(1, 20));
      break;
    case 6:
      s = (mantissa(d) * 10 ** d.range(-8, 18)).toPrecision(d.range(1, 21));
      break;
    case 7:
      s = String(Math.round(d.next() * 100000) / 100);
      break;
    case 8:
      s = `${d.range(-1000, 1000)}.${"0".repeat(d.range(1, 3))}`;
      break;
    case 9:
      s = d.pick([
        `${d.range(1, 9)}E+${d.range(0, 25)}`,
        `0.${d.range(1, 999)}e${d.range(-5, 5)}`,
        `${d.range(0, 99)}.${d.range(0, 99)}0`,
        `${d.range(1, 9)}e-0${d.range(1, 9)}`,
        `${d.range(1, 999)}.${d.range(0, 9)}E${d.range(-3, 3)}`,
      ]);
      break;
    case 10: {
      const p = 10 ** d.range(2, 7);
      s = String(Math.round((d.next() * 360 - 180) * p) / p);
      break;
    }
    default:
      s = String(d.next());
  }
  if (d.chance(0.25) && s[0] !== "-") s = "-" + s;
  if (!/[.eE]/.test(s) && !d.chance(0.08)) s += ".0";
  return s;
}

function bigIntLex(d: Dice): string {
  let s = String(d.range(1, 9));
  const n = d.range(20, 40);
  while (s.length < n) s += String(d.int(10));
  return d.chance(0.3) ? "-" + s : s;
}

function intLex(d: Dice): string {
  switch (d.int(8)) {
    case 0:
      return bigIntLex(d);
    case 1:
      return d.pick(["0", "-1", "9007199254740993", "9223372036854775808", "18446744073709551615"]);
    case 2:
      return String(d.range(-100000, 100000));
    default:
      return String(d.range(0, 120));
  }
}

/** Parses a number lexeme as sign, significant digits and a power of ten. */
function decimalParts(
  lex: string,
): { sign: string; digits: string; e10: number; float: boolean } | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(lex);
  if (!m) return null;
  const frac = m[3] ?? "";
  let digits = (m[2]! + frac).replace(/^0+/, "");
  let e10 = parseInt(m[4] ?? "0", 10) - frac.length;
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    e10++;
  }
  return { sign: m[1]!, digits, e10, float: m[3] !== undefined || m[4] !== undefined };
}

function expText(d: Dice, x: number): string {
  const e = d.chance(0.7) ? "e" : "E";
  if (x < 0) return `${e}-${d.chance(0.1) ? "0" : ""}${-x}`;
  return `${e}${d.chance(0.4) ? "+" : ""}${x}`;
}

/** Another spelling of the same value: a float stays a float, `0` may become `-0`. */
function respell(lex: string, d: Dice): string {
  const p = decimalParts(lex);
  if (p === null) return lex;
  if (!p.float) return p.digits === "" && p.sign === "" ? "-0" : lex;
  const pad = "0".repeat(d.int(3));
  if (p.digits === "") {
    return p.sign + d.pick(["0.0", "0.00", "0e0", "0E+0", "0.0e-3", `0.${pad}0e7`]);
  }
  const { digits, e10 } = p;
  const n = digits.length;
  for (let tries = 0; tries < 4; tries++) {
    let out: string;
    const form = d.int(5);
    if (form === 1 && e10 > -40 && e10 + n < 40) {
      if (e10 >= 0) out = `${digits}${"0".repeat(e10)}.0${pad}`;
      else {
        const point = n + e10;
        out = point > 0
          ? `${digits.slice(0, point)}.${digits.slice(point)}${pad}`
          : `0.${"0".repeat(-point)}${digits}${pad}`;
      }
    } else if (form === 2) out = `0.${digits}${pad}${expText(d, e10 + n)}`;
    else if (form === 3) {
      const z = d.int(3);
      out = `${digits}${"0".repeat(z)}${expText(d, e10 - z)}`;
    } else if (form === 4) out = `${digits}.0${expText(d, e10)}`;
    else out = `${digits[0]}.${digits.slice(1) || "0"}${pad}${expText(d, e10 + n - 1)}`;
    out = p.sign + out;
    if (out !== lex) return out;
  }
  return lex.includes(".") && !/[eE]/.test(lex) ? lex + "0" : lex;
}

/** A different value, most often close to the original. */
function nudge(lex: string, d: Dice): string {
  const p = decimalParts(lex);
  if (p === null) return "0";
  if (!p.float) {
    if (d.chance(0.4)) return `${lex}.0`; // same number, but a float: another canonical value
    if (d.chance(0.3)) return lex.startsWith("-") ? lex.slice(1) : `-${lex}`;
    const last = Number(lex.slice(-1));
    return lex.slice(0, -1) + String((last + 1 + d.int(8)) % 10);
  }
  if (p.digits === "") return p.sign === "-" ? "0.0" : "1e-9";
  // An integral float written as an integer is another canonical value (1.0 against 1).
  if (p.e10 >= 0 && p.digits.length + p.e10 <= 15 && d.chance(0.35)) {
    return p.sign + p.digits + "0".repeat(p.e10);
  }
  const at = d.int(Math.min(p.digits.length, 12));
  const old = p.digits.charCodeAt(at) - 48;
  const digit = at === 0 ? 1 + ((old + d.int(8)) % 9) : (old + 1 + d.int(9)) % 10;
  const digits = p.digits.slice(0, at) + String(digit) + p.digits.slice(at + 1);
  return respell(`${p.sign}${digits}e${p.e10}`, d);
}

// ------------------------------------------------------------------ values of arguments

const KEY_POOL = [
  "id",
  "value",
  "note",
  "tags",
  "limit",
  "threshold",
  "scale",
  "ratio",
  "mean",
  "σ",
  "Straße",
  "größe",
  "città",
  "日付",
  "数量",
  "الموقع",
  "ключ",
  "значение",
  "número",
  "emoji_🎉",
  "key with spaces",
  "a.b.c",
  "$ref",
  "@type",
  "x-trace-id",
  '"quoted"',
  "line\nbreak",
  "back\\slash",
  "slash/key",
  "0",
  "1",
  "",
  "null",
  "__proto__",
  "constructor",
  "toString",
  "é",
  "e\u0301",
  "ｘ",
  "😀",
  "\u00e9t\u00e9",
];

const EMAILS = [
  "ana.garcia@example.com",
  "j.smith+billing@example.org",
  "müller@bücher.de",
  "li.wei@例子.中国",
  "ops@example.net",
];

const WEIRD_STRINGS = [
  "",
  " ",
  "😀🎉👍🏽",
  "👩‍👩‍👧‍👦 family",
  "🇫🇷🇯🇵",
  "שלום עולם",
  "مرحبا\u200f123",
  "null",
  "true",
  "1.0",
  "\u0000nul\u0001soh",
  "\u2028line sep\u2029",
  'quote " and backslash \\',
  "https://example.com/a/b?q=1&x=%20",
  "</script><script>alert(1)</script>",
  "e\u0301 vs é",
  "\t\n\r\b\f",
  "\ufeffbom",
  "𝕳𝖊𝖑𝖑𝖔",
  "\ud83d\ude00",
  "ﾊﾝｶｸ",
];

function text(d: Dice, p: Pack): Json {
  return str(d.pick(p.phrases), "text");
}

function city(d: Dice, p: Pack): Json {
  return str(d.pick(p.cities), "city");
}

function pad2(n: number): string {
  return n < 10 ? "0" + n : String(n);
}

function date(d: Dice): string {
  return `20${d.range(19, 31)}-${pad2(d.range(1, 12))}-${pad2(d.range(1, 28))}`;
}

function dateTime(d: Dice): string {
  const tz = d.pick(["Z", "+01:00", "-05:00", "+09:00", "+05:30"]);
  return `${date(d)}T${pad2(d.int(24))}:${pad2(d.int(60))}:${pad2(d.int(60))}${tz}`;
}

function hex(d: Dice, n: number): string {
  let s = "";
  while (s.length < n) s += (d.u32() >>> 0).toString(16).padStart(8, "0");
  return s.slice(0, n);
}

function uuid(d: Dice): string {
  const h = hex(d, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${
    h.slice(20)
  }`;
}

function floats(d: Dice, n: number): Json {
  const v: Json[] = [];
  for (let i = 0; i < n; i++) v.push(num(floatLex(d)));
  return arr(v);
}

function coords(d: Dice): Obj {
  return obj([
    ["lat", num(String(Math.round((d.next() * 180 - 90) * 1e6) / 1e6))],
    ["lon", num(floatLex(d))],
  ]);
}

function scalar(d: Dice, p: Pack): Json {
  switch (d.int(10)) {
    case 0:
    case 1:
    case 2:
      return num(floatLex(d));
    case 3:
      return num(intLex(d));
    case 4:
      return text(d, p);
    case 5:
      return str(d.pick(WEIRD_STRINGS));
    case 6:
      return lit(d.pick(["true", "false"]));
    case 7:
      return lit("null");
    case 8:
      return d.chance(0.02) ? lit(d.pick(["NaN", "Infinity", "-Infinity"])) : str(dateTime(d));
    default:
      return num(floatLex(d));
  }
}

/** A random tree: objects with unusual keys, arrays, every kind of scalar. */
function anyValue(d: Dice, p: Pack, depth: number): Json {
  const r = d.next();
  if (depth <= 0 || r < 0.5) return scalar(d, p);
  if (r < 0.78) {
    const n = d.int(5);
    const seen = new Set<string>();
    const m: [string, Json][] = [];
    for (let i = 0; i < n; i++) {
      const k = d.chance(0.5) ? d.pick(KEY_POOL) : `k${d.int(40)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      m.push([k, anyValue(d, p, depth - 1)]);
    }
    return obj(m);
  }
  const n = d.int(6);
  const v: Json[] = [];
  for (let i = 0; i < n; i++) v.push(anyValue(d, p, depth - 1));
  return arr(v);
}

const utf8 = new TextEncoder();

/** Phrases joined up to about `bytes` bytes of UTF-8. */
function longText(d: Dice, p: Pack, bytes: number): Json {
  let s = "";
  let n = 0;
  while (n < bytes) {
    const t = d.pick(p.phrases) + d.pick(["\n", " ", "\n\n", "\t", ". "]);
    s += t;
    n += utf8.encode(t).length;
  }
  return str(s, "text");
}

// ------------------------------------------------------------------ tools

interface Tool {
  name: string;
  about: string;
  args: (d: Dice, p: Pack) => [string, Json][];
}

/** Optional fields: each is kept with probability `keep`. */
function some(d: Dice, keep: number, fields: [string, () => Json][]): [string, Json][] {
  const out: [string, Json][] = [];
  for (const [k, f] of fields) if (d.chance(keep)) out.push([k, f()]);
  return out;
}

const TOOLS: Tool[] = [
  {
    name: "get_weather",
    about: "Current weather and forecast for a place.",
    args: (d, p) => [
      ["location", city(d, p)],
      ...some(d, 0.45, [
        ["units", () => str(d.pick(["celsius", "fahrenheit", "kelvin"]))],
        ["days", () => num(d.range(1, 14))],
        ["include_hourly", () => lit(d.pick(["true", "false"]))],
        ["coords", () => coords(d)],
      ]),
    ],
  },
  {
    name: "search_flights",
    about: "Search flights between two airports.",
    args: (d) => [
      ["origin", str(d.pick(["JFK", "CDG", "NRT", "FRA", "GRU", "DXB", "DEL", "SVO"]))],
      ["destination", str(d.pick(["LHR", "MAD", "PEK", "SYD", "LIS", "CAI", "BOM", "YUL"]))],
      ["depart_date", str(date(d))],
      ["return_date", d.chance(0.3) ? lit("null") : str(date(d))],
      [
        "passengers",
        obj([["adults", num(d.range(1, 4))], ["children", num(d.int(3))], ["infants", num(0)]]),
      ],
      ...some(d, 0.4, [
        ["max_price", () => num(floatLex(d))],
        ["cabin", () => str(d.pick(["economy", "premium_economy", "business", "first"]))],
        ["flexible_days", () => num(d.int(4))],
      ]),
    ],
  },
  {
    name: "hotel.reserve",
    about: "Reserve hotel rooms.",
    args: (d, p) => [
      ["city", city(d, p)],
      ["check_in", str(date(d))],
      ["check_out", str(date(d))],
      [
        "rooms",
        arr(
          Array.from(
            { length: d.range(1, 3) },
            () =>
              obj([
                ["guests", num(d.range(1, 4))],
                ["beds", str(d.pick(["single", "double", "twin", "king"]))],
              ]),
          ),
        ),
      ],
      ...some(d, 0.4, [
        [
          "budget",
          () =>
            obj([
              ["min", num(floatLex(d))],
              ["max", num(floatLex(d))],
              ["currency", str(d.pick(["EUR", "USD", "JPY", "BRL", "₹"]))],
            ]),
        ],
        ["amenities", () => arr([str("wifi"), str(d.pick(["pool", "spa", "parking", "gym"]))])],
      ]),
    ],
  },
  {
    name: "convert_currency",
    about: "Convert an amount between currencies.",
    args: (d) => [
      ["amount", num(floatLex(d))],
      ["from", str(d.pick(["EUR", "USD", "JPY", "GBP", "CNY", "INR", "RUB", "BRL"]))],
      ["to", str(d.pick(["EUR", "USD", "JPY", "GBP", "CNY", "INR", "RUB", "BRL"]))],
      ...some(d, 0.4, [
        ["rate_hint", () => num(String(d.next() * 200))],
        ["round_to", () => num(d.int(5))],
      ]),
    ],
  },
  {
    name: "createCalendarEvent",
    about: "Create a calendar event.",
    args: (d, p) => [
      ["title", text(d, p)],
      ["start", str(dateTime(d))],
      ["end", str(dateTime(d))],
      ...some(d, 0.4, [
        ["attendees", () => arr(Array.from({ length: d.range(0, 3) }, () => str(d.pick(EMAILS))))],
        ["location", () => city(d, p)],
        ["all_day", () => lit(d.pick(["true", "false"]))],
        [
          "reminders",
          () => arr(Array.from({ length: d.range(0, 3) }, () => num(d.pick([5, 10, 15, 30, 60])))),
        ],
        [
          "recurrence",
          () =>
            d.chance(0.4) ? lit("null") : obj([
              ["freq", str(d.pick(["DAILY", "WEEKLY", "MONTHLY"]))],
              ["interval", num(d.range(1, 4))],
              ["until", str(date(d))],
            ]),
        ],
      ]),
    ],
  },
  {
    name: "send_email",
    about: "Send an email.",
    args: (d, p) => [
      ["to", arr(Array.from({ length: d.range(1, 3) }, () => str(d.pick(EMAILS))))],
      ["subject", text(d, p)],
      ["body", d.chance(0.06) ? longText(d, p, d.range(300, 1800)) : text(d, p)],
      ...some(d, 0.3, [
        [
          "attachments",
          () =>
            arr([obj([
              ["filename", str(d.pick(["report.pdf", "données.csv", "写真.jpg", "a/b\\c.txt"]))],
              ["size_bytes", num(d.range(1, 1e9))],
              ["sha1", str(hex(d, 40))],
            ])]),
        ],
        ["importance", () => num(floatLex(d))],
      ]),
    ],
  },
  {
    name: "run_sql",
    about: "Run a read-only SQL query.",
    args: (d) => [
      [
        "query",
        str(d.pick([
          "SELECT * FROM orders WHERE total > ? AND city = 'Köln'",
          'SELECT "name", price FROM "items"\nWHERE price < 9.99\nORDER BY 2 DESC',
          "SELECT count(*) FROM users WHERE email LIKE '%@example.com'",
          "WITH t AS (SELECT 1 AS x) SELECT x / 3.0 FROM t",
        ])),
      ],
      ["params", arr([num(floatLex(d)), str(d.pick(["Köln", "東京", "a'b"])), num(intLex(d))])],
      ...some(d, 0.4, [["timeout_ms", () => num(d.range(100, 60000))], [
        "limit",
        () => num(d.range(1, 1000)),
      ]]),
    ],
  },
  {
    name: "compute_statistics",
    about: "Summary statistics of a series.",
    args: (d) => [
      ["values", floats(d, d.chance(0.03) ? d.range(25, 70) : d.range(1, 6))],
      ...some(d, 0.4, [
        ["weights", () => floats(d, d.range(1, 4))],
        ["confidence", () => num(d.pick(["0.95", "0.99", "0.9", "9.5e-1", "0.950"]))],
        ["method", () => str(d.pick(["mean", "median", "trimmed", "huber"]))],
      ]),
    ],
  },
  {
    name: "physics.simulate",
    about: "Integrate a point mass.",
    args: (d) => [
      [
        "initial",
        obj([
          ["position", floats(d, 3)],
          ["velocity", floats(d, 3)],
          ["mass", num(floatLex(d))],
        ]),
      ],
      ["dt", num(floatLex(d))],
      ...some(d, 0.35, [[
        "constants",
        () =>
          obj([
            ["G", num(d.pick(["6.6743e-11", "6.674300e-11", "0.000000000066743"]))],
            ["c", num(d.pick(["299792458", "299792458.0", "2.99792458e8"]))],
            ["h", num("6.62607015e-34")],
          ]),
      ]]),
      ["steps", num(d.chance(0.3) ? bigIntLex(d) : String(d.range(1, 1e6)))],
    ],
  },
  {
    name: "get_stock_quote",
    about: "Latest quote for a ticker.",
    args: (d) => [
      ["symbol", str(d.pick(["AAPL", "7203.T", "SAP.DE", "VALE3.SA", "RELIANCE.NS", "^GSPC"]))],
      ...some(d, 0.45, [
        ["fields", () => arr([str("price"), str(d.pick(["volume", "pe", "eps", "change_%"]))])],
        ["as_of", () => str(dateTime(d))],
        ["precision", () => num(d.int(8))],
      ]),
    ],
  },
  {
    name: "translate_text",
    about: "Translate a text.",
    args: (d, p) => [
      ["text", d.chance(0.03) ? longText(d, p, d.range(300, 1200)) : text(d, p)],
      ["source_lang", str(d.pick(["auto", "en", "de", "ja", "ar"]))],
      ["target_lang", str(d.pick(["fr", "zh-Hans", "pt-BR", "hi", "ru"]))],
      ...some(d, 0.3, [["formality", () => d.chance(0.5) ? lit("null") : str("more")]]),
    ],
  },
  {
    name: "set_thermostat",
    about: "Set a thermostat.",
    args: (d, p) => [
      ["temperature", num(floatLex(d))],
      ["unit", str(d.pick(["C", "F", "°C"]))],
      ...some(d, 0.4, [
        ["zone", () => text(d, p)],
        [
          "schedule",
          () =>
            arr(Array.from({ length: d.range(1, 3) }, () =>
              obj([
                ["day", str(d.pick(["mon", "tue", "sat", "sun"]))],
                ["from", str(`${pad2(d.int(24))}:00`)],
                ["temp", num(floatLex(d))],
              ]))),
        ],
      ]),
    ],
  },
  {
    name: "天気予報",
    about: "天気予報を取得する。",
    args: (d, p) => [
      ["都市", city(d, p)],
      ["日付", str(date(d))],
      ...some(d, 0.4, [["詳細", () => lit(d.pick(["true", "false"]))], [
        "気温",
        () => num(floatLex(d)),
      ]]),
    ],
  },
  {
    name: "créer_rappel",
    about: "Crée un rappel.",
    args: (d, p) => [
      ["message", text(d, p)],
      ["heure", str(`${pad2(d.int(24))}:${pad2(d.int(60))}`)],
      ...some(d, 0.4, [["répéter", () => lit(d.pick(["true", "false"]))], [
        "priorité",
        () => num(floatLex(d)),
      ]]),
    ],
  },
  {
    name: "поиск_товаров",
    about: "Поиск товаров в каталоге.",
    args: (d, p) => [
      ["запрос", text(d, p)],
      ["цена_до", num(floatLex(d))],
      ...some(d, 0.4, [[
        "категории",
        () => arr([str("книги"), str(d.pick(["игры", "ёлки", "чай"]))]),
      ]]),
    ],
  },
  {
    name: "ledger.post_transaction",
    about: "Post a ledger transaction.",
    args: (d, p) => [
      ["account_id", num(bigIntLex(d).replace("-", ""))],
      ["amount", num(floatLex(d))],
      ["currency", str(d.pick(["EUR", "USD", "JPY", "BTC"]))],
      ["memo", text(d, p)],
      ...some(d, 0.4, [
        ["balance_after", () => num(floatLex(d))],
        ["tx_hash", () => str("0x" + hex(d, 64))],
        ["sequence", () => num(intLex(d))],
      ]),
    ],
  },
  {
    name: "geocode",
    about: "Geocode an address.",
    args: (d, p) => [
      ["address", text(d, p)],
      ...some(d, 0.4, [
        ["bounds", () => obj([["ne", coords(d)], ["sw", coords(d)]])],
        ["language", () => str(d.pick(["en", "de", "ar", "zh"]))],
      ]),
    ],
  },
  {
    name: "plot_series",
    about: "Plot data series.",
    args: (d, p) => [
      [
        "series",
        arr(Array.from({ length: d.chance(0.8) ? 1 : 2 }, () => {
          const n = d.chance(0.03) ? d.range(15, 40) : d.range(2, 5);
          return obj([["label", text(d, p)], ["x", floats(d, n)], ["y", floats(d, n)]]);
        })),
      ],
      ...some(d, 0.4, [
        ["title", () => text(d, p)],
        ["log_scale", () => lit(d.pick(["true", "false"]))],
        ["dpi", () => num(d.pick([72, 96, 150, 300]))],
      ]),
    ],
  },
  {
    name: "create_invoice",
    about: "Create an invoice.",
    args: (d, p) => [
      [
        "customer",
        obj([
          [
            "name",
            str(d.pick(["José Núñez", "Zoë Ångström", "王小明", "محمد علي", "O'Brien & Sons"])),
          ],
          ["email", str(d.pick(EMAILS))],
          ...some(d, 0.4, [["vat_id", () => str(d.pick(["DE123456789", "FR12345678901"]))]]),
        ]),
      ],
      [
        "lines",
        arr(Array.from({ length: d.chance(0.03) ? d.range(6, 15) : d.range(1, 2) }, () =>
          obj([
            ["sku", str(`SKU-${hex(d, 6)}`)],
            ["qty", num(d.range(1, 20))],
            ["unit_price", num(floatLex(d))],
            ["discount", d.chance(0.5) ? lit("null") : num(floatLex(d))],
          ]))),
      ],
      ...some(d, 0.4, [["due_in_days", () => num(d.range(7, 90))], ["notes", () => text(d, p)]]),
    ],
  },
  {
    name: "fetch-url",
    about: "Fetch a URL.",
    args: (d) => [
      [
        "url",
        str(d.pick([
          "https://example.com/api/v1/items?page=2&sort=-price",
          "https://例え.jp/パス/ファイル.html",
          "http://localhost:8080/a/b/c/",
          "https://example.org/search?q=caf%C3%A9&lang=fr",
        ])),
      ],
      ...some(d, 0.4, [
        ["headers", () => obj([["Accept", str("application/json")], ["X-Größe", str("10")]])],
        ["follow_redirects", () => lit(d.pick(["true", "false"]))],
        ["timeout", () => num(floatLex(d))],
      ]),
    ],
  },
  {
    name: "get_time",
    about: "The current time.",
    args: (d) =>
      some(d, 0.4, [["timezone", () => str(d.pick(["UTC", "Europe/Berlin", "Asia/Tokyo"]))]]),
  },
  {
    name: "updateUserProfile",
    about: "Update fields of a user profile.",
    args: (d, p) => [
      ["user_id", str(uuid(d))],
      ["fields", anyValue(d, p, 3)],
      ...some(d, 0.4, [["überschreiben", () => lit(d.pick(["true", "false"]))]]),
    ],
  },
  {
    name: "functions.lookup_order",
    about: "Look up an order.",
    args: (d) => [
      ["order_id", str(`ORD-${d.range(100000, 999999)}`)],
      ...some(d, 0.4, [["include", () => arr([str("items"), str("shipping")])]]),
    ],
  },
  {
    name: "analyze_payload",
    about: "Analyze an arbitrary JSON payload.",
    args: (d, p) => [
      ["payload", anyValue(d, p, 4)],
      ...some(d, 0.4, [["strict", () => lit(d.pick(["true", "false"]))], [
        "tolerance",
        () => num(floatLex(d)),
      ]]),
    ],
  },
];

const TOOL_SHARE: readonly (readonly [number, number])[] = TOOLS.map((t, i) => [
  i,
  t.name === "analyze_payload" || t.name === "updateUserProfile" ? 2.5 : 4,
]);

/** A name close to `name` but not equal to it. */
function nearName(name: string, d: Dice): string {
  for (let tries = 0; tries < 6; tries++) {
    let out: string;
    switch (d.int(9)) {
      case 0:
        out = name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
        break;
      case 1:
        out = name.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
        break;
      case 2:
        out = name.charAt(0).toUpperCase() + name.slice(1);
        break;
      case 3:
        out = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : `functions.${name}`;
        break;
      case 4:
        out = name + d.pick(["_v2", "s", " ", "()"]);
        break;
      case 5: {
        const i = d.int(Math.max(1, name.length - 1));
        out = name.slice(0, i) + name.charAt(i + 1) + name.charAt(i) + name.slice(i + 2);
        break;
      }
      case 6:
        out = name.normalize("NFD");
        break;
      case 7:
        out = d.pick(TOOLS).name;
        break;
      default:
        out = name.replace(
          /^get_|^create|^search_/,
          (s) => s === "get_" ? "fetch_" : s === "create" ? "make" : "find_",
        );
    }
    if (out !== name && out !== "") return out;
  }
  return name + "_x";
}

// ------------------------------------------------------------------ writing JSON text

interface Spell {
  /** Line break of pretty-printed text; "" for one line. */
  nl: string;
  indent: string;
  colon: string;
  comma: string;
  /** Non-ASCII: 0 raw, 1 always as \u escapes, 2 either, at random. */
  esc: 0 | 1 | 2;
  /** Write "/" as "\/" (with esc 2: sometimes). */
  slash: boolean;
  /** Pretty text keeps arrays of scalars on one line. */
  flatArrays: boolean;
  /** Invalid variants. */
  quote?: "'";
  bareKeys?: boolean;
  python?: boolean;
  rawControl?: boolean;
  /** Add a trailing comma to every non-empty container at this depth. */
  trailingAt?: number;
  d: Dice;
}

const SHORT_ESCAPES: Record<number, string> = {
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0c: "\\f",
  0x0d: "\\r",
};
const PLAIN = /^[\x20\x21\x23-\x2e\x30-\x5b\x5d-\x7e]*$/;

function u4(c: number, d: Dice | null): string {
  const h = c.toString(16).padStart(4, "0");
  return "\\u" + (d !== null && d.chance(0.2) ? h.toUpperCase() : h);
}

/** A string literal in `sp`'s spelling; lone surrogates are always escaped. */
function quote(s: string, sp: Spell): string {
  const q = sp.quote ?? '"';
  if (q === '"' && PLAIN.test(s)) return '"' + s + '"';
  const mixed = sp.esc === 2 ? sp.d : null;
  let out = q;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += q === '"' ? (mixed && mixed.chance(0.05) ? "\\u0022" : '\\"') : '"';
    else if (c === 0x27 && q === "'") out += "\\'";
    else if (c === 0x5c) out += "\\\\";
    else if (c < 0x20) {
      if (sp.rawControl) out += s[i];
      else out += mixed && mixed.chance(0.3) ? u4(c, mixed) : (SHORT_ESCAPES[c] ?? u4(c, null));
    } else if (c === 0x2f) {
      out += sp.slash && (!mixed || mixed.chance(0.5)) ? "\\/" : "/";
    } else if (c < 0x7f) out += s[i];
    else if (
      c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      const lo = s.charCodeAt(i + 1);
      if (sp.esc === 1 || (mixed && mixed.chance(0.5))) out += u4(c, mixed) + u4(lo, mixed);
      else out += s[i]! + s[i + 1]!;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += u4(c, mixed);
    else if (sp.esc === 1 || (mixed && mixed.chance(0.5))) out += u4(c, mixed);
    else out += s[i];
  }
  return out + q;
}

function key(k: string, sp: Spell): string {
  return sp.bareKeys ? k : quote(k, sp);
}

function scalarText(v: Json, sp: Spell): string {
  switch (v.t) {
    case "str":
      return quote(v.s, sp);
    case "num":
    case "raw":
      return v.x;
    case "lit":
      if (!sp.python) return v.x;
      return v.x === "true" ? "True" : v.x === "false" ? "False" : v.x === "null" ? "None" : v.x;
    default:
      throw new Error("not a scalar");
  }
}

function isScalar(v: Json): boolean {
  return v.t !== "obj" && v.t !== "arr";
}

/** Writes `v` in spelling `sp`; `depth` is the container depth of `v`. */
function write(v: Json, sp: Spell, depth = 0): string {
  if (v.t !== "obj" && v.t !== "arr") return scalarText(v, sp);
  const items = v.t === "obj" ? v.m : v.v;
  const [open, close] = v.t === "obj" ? ["{", "}"] : ["[", "]"];
  if (items.length === 0) return open + close;
  const trail = sp.trailingAt === depth ? "," : "";
  const parts: string[] = [];
  if (v.t === "obj") {
    for (const [k, x] of v.m) parts.push(key(k, sp) + sp.colon + write(x, sp, depth + 1));
  } else for (const x of v.v) parts.push(write(x, sp, depth + 1));
  if (sp.nl === "" || (v.t === "arr" && sp.flatArrays && v.v.every(isScalar))) {
    const sep = sp.nl === "" ? sp.comma : ", ";
    return open + parts.join(sep) + trail + close;
  }
  const inner = sp.nl + sp.indent.repeat(depth + 1);
  return open + inner + parts.join("," + inner) + trail + sp.nl + sp.indent.repeat(depth) + close;
}

function lineSpell(d: Dice, spaced: boolean): Spell {
  return {
    nl: "",
    indent: "",
    colon: spaced ? ": " : ":",
    comma: spaced ? ", " : ",",
    esc: d.weighted([[0, 6], [1, 2], [2, 2]] as const),
    slash: d.chance(0.15),
    flatArrays: false,
    d,
  };
}

/** A spelling a model might use: one line or pretty-printed. */
function outputSpell(d: Dice): Spell {
  const sp = lineSpell(d, d.chance(0.5));
  if (d.chance(0.5)) {
    sp.nl = d.chance(0.9) ? "\n" : "\r\n";
    sp.indent = d.weighted([["  ", 6], ["    ", 3], ["\t", 1]] as const);
    sp.colon = d.chance(0.9) ? ": " : " : ";
    sp.flatArrays = d.chance(0.4);
  }
  return sp;
}

function callTree(name: Json, args: Json, d: Dice): Obj {
  return d.chance(0.12)
    ? obj([["arguments", args], ["name", name]])
    : obj([["name", name], ["arguments", args]]);
}

// ------------------------------------------------------------------ identities

interface Identity {
  lang: Lang;
  id: string;
}

function identity(seed: number, i: number): Identity {
  const d = new Dice(seed, i, S_META);
  const lang = d.weighted(LANG_SHARE);
  let id: string;
  switch (d.weighted([[0, 33], [1, 14], [2, 14], [3, 15], [4, 6], [5, 18]] as const)) {
    case 0:
      id = `task-${String(i).padStart(6, "0")}`;
      break;
    case 1: {
      const tail = ((i ^ (seed & 0xffffff)) >>> 0).toString(16).padStart(12, "0");
      const h = hex(d, 20);
      id = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${d.pick(["8", "9", "a", "b"])}${
        h.slice(17, 20)
      }-${tail}`;
      break;
    }
    case 2:
      id = `ex/${lang}/${i}`;
      break;
    case 3:
      id = `${lang}-${PACKS[lang].idWord}-${i}`;
      break;
    case 4:
      id = d.pick([`case ${i} "quoted"`, `dir\\sub\\${i}`, `a/b/${i}`, `📦-${i}`, `tab\t${i}`]);
      break;
    default:
      id = `h${(seed >>> 0) % 997}_${i.toString(36)}`;
  }
  return { lang, id };
}

/** The id of an earlier `en` row this row translates, when it has one. */
function rootOf(seed: number, i: number, lang: Lang): number | null {
  if (lang === "en" || i === 0) return null;
  const d = new Dice(seed, i, S_ROOT);
  if (!d.chance(0.4)) return null;
  for (let tries = 0; tries < 6; tries++) {
    const j = i - 1 - d.int(Math.min(i, 300));
    if (identity(seed, j).lang === "en") return j;
  }
  return null;
}

// ------------------------------------------------------------------ gold targets

type DropReason = "multiple_calls" | "empty_target" | "malformed_target";

interface Gold {
  /** The call scored against, when the target is kept. */
  call: Call | null;
  drop: DropReason | null;
  /** The whole target value as written. */
  target: Json;
  tool: Tool;
}

function buildCall(d: Dice, p: Pack): { call: Call; tool: Tool } {
  const tool = TOOLS[d.weighted(TOOL_SHARE)]!;
  const m = tool.args(d, p);
  if (d.chance(0.1)) m.push([d.pick(["options", "extra", "meta"]), anyValue(d, p, 2)]);
  if (d.chance(0.25)) d.shuffle(m);
  return { call: { name: tool.name, args: obj(m) }, tool };
}

function translate(v: Json, d: Dice, p: Pack): Json {
  switch (v.t) {
    case "obj":
      return obj(v.m.map(([k, x]) => [k, translate(x, d, p)]));
    case "arr":
      return arr(v.v.map((x) => translate(x, d, p)));
    case "str":
      return v.cat === "text" ? text(d, p) : v.cat === "city" ? city(d, p) : { ...v };
    default:
      return { ...v };
  }
}

function callJson(c: Call, d: Dice): Obj {
  return callTree(str(c.name), c.args, d);
}

function gold(seed: number, i: number, who: Identity): Gold {
  const d = new Dice(seed, i, S_TARGET);
  const p = PACKS[who.lang];
  const root = rootOf(seed, i, who.lang);
  if (root !== null && d.chance(0.6)) {
    const base = gold(seed, root, identity(seed, root));
    if (base.call !== null) {
      const call = { name: base.call.name, args: translate(base.call.args, d, p) as Obj };
      const target = d.chance(0.03) ? arr([callJson(call, d)]) : callJson(call, d);
      return { call, drop: null, target, tool: base.tool };
    }
  }
  const { call, tool } = buildCall(d, p);
  const r = d.next();
  if (r < 0.0235) {
    const calls = [callJson(call, d)];
    const n = d.range(2, 4);
    while (calls.length < n) calls.push(callJson(d.chance(0.3) ? call : buildCall(d, p).call, d));
    return { call: null, drop: "multiple_calls", target: arr(calls), tool };
  }
  if (r < 0.031) return { call: null, drop: "empty_target", target: arr([]), tool };
  if (r < 0.047) {
    const name = str(call.name);
    const args = call.args;
    const spelledArgs = write(args, lineSpell(d, false));
    const target = d.pick<() => Json>([
      () => obj([["name", name], ["arguments", str(spelledArgs)]]),
      () => obj([["name", name], ["arguments", arr(args.m.map(([, x]) => x))]]),
      () => obj([["name", name]]),
      () => obj([["arguments", args]]),
      () => obj([["name", str("")], ["arguments", args]]),
      () => obj([["name", num(7)], ["arguments", args]]),
      () => obj([["name", name], ["arguments", args], ["id", str("call_1")]]),
      () => arr([callJson(call, d), str("oops")]),
      () => arr([arr([callJson(call, d)])]),
      () => lit("null"),
      () => str(call.name),
      () => obj([]),
      () => arr([obj([["name", name], ["parameters", args]])]),
    ])();
    return { call: null, drop: "malformed_target", target, tool };
  }
  const target = d.chance(0.03) ? arr([callJson(call, d)]) : callJson(call, d);
  return { call, drop: null, target, tool };
}

// ------------------------------------------------------------------ model outputs

type Status = "ok" | "invalid_json" | "invalid_shape" | "no_json";

const KINDS: readonly (readonly [readonly [Status, string], number])[] = [
  [["ok", "exact"], 12],
  [["ok", "respelled"], 10],
  [["ok", "reordered"], 3],
  [["ok", "wrong_value"], 8],
  [["ok", "missing_key"], 4],
  [["ok", "extra_key"], 3],
  [["ok", "wrong_name"], 3],
  [["ok", "list_wrapped"], 1.5],
  [["ok", "nonfinite"], 1],
  [["ok", "duplicate_key"], 0.7],
  [["ok", "type_confused"], 1],
  [["ok", "back_to_back"], 0.8],
  [["invalid_json", "truncated"], 6],
  [["invalid_json", "trailing_comma"], 3.5],
  [["invalid_json", "single_quotes"], 3],
  [["invalid_json", "bare_keys"], 2.5],
  [["invalid_json", "mismatched"], 2],
  [["invalid_json", "raw_control"], 2],
  [["invalid_json", "python_literals"], 1.5],
  [["invalid_json", "comment"], 1],
  [["invalid_json", "bad_escape"], 1],
  [["invalid_json", "bad_number"], 1.2],
  [["invalid_json", "bracket_in_prose"], 0.8],
  [["invalid_json", "odd_whitespace"], 0.5],
  [["invalid_shape", "extra_top_key"], 3.5],
  [["invalid_shape", "parameters"], 3.5],
  [["invalid_shape", "arguments_string"], 3.5],
  [["invalid_shape", "two_calls"], 3],
  [["invalid_shape", "openai"], 3],
  [["invalid_shape", "anthropic"], 3],
  [["invalid_shape", "bad_fields"], 1],
  [["invalid_shape", "bare_arguments"], 1],
  [["invalid_shape", "wrapped"], 1],
  [["invalid_shape", "leading_array"], 0.5],
  [["no_json", "prose"], 3.2],
  [["no_json", "empty"], 0.3],
  [["no_json", "closers_only"], 0.5],
];

function statusShares(): Record<string, number> {
  const out: Record<string, number> = { ok: 0, invalid_json: 0, invalid_shape: 0, no_json: 0 };
  let total = 0;
  for (const [[s], w] of KINDS) {
    out[s] = out[s]! + w;
    total += w;
  }
  for (const s of Object.keys(out)) out[s] = Math.round((out[s]! / total) * 1e6) / 1e6;
  return out;
}

interface Slot {
  parent: Obj | Arr;
  at: number;
}

function slots(v: Json, out: Slot[]): Slot[] {
  if (v.t === "obj") {
    v.m.forEach(([, x], at) => {
      out.push({ parent: v, at });
      slots(x, out);
    });
  } else if (v.t === "arr") {
    v.v.forEach((x, at) => {
      out.push({ parent: v, at });
      slots(x, out);
    });
  }
  return out;
}

function getSlot(s: Slot): Json {
  return s.parent.t === "obj" ? s.parent.m[s.at]![1] : s.parent.v[s.at]!;
}

function setSlot(s: Slot, v: Json): void {
  if (s.parent.t === "obj") s.parent.m[s.at]![1] = v;
  else s.parent.v[s.at] = v;
}

/** A different value in place of `v`. */
function wrongValue(v: Json, d: Dice, p: Pack): Json {
  switch (v.t) {
    case "num":
      return num(nudge(v.x, d));
    case "str":
      switch (d.int(5)) {
        case 0:
          return str(v.s.toUpperCase() === v.s ? v.s + "!" : v.s.toUpperCase());
        case 1:
          return str(v.s + " ");
        case 2:
          return str(v.s.normalize("NFD") === v.s ? v.s + "\u0301" : v.s.normalize("NFD"));
        case 3:
          return str(d.pick(PACKS.en.phrases));
        default: {
          const t = d.pick(p.phrases);
          return str(t === v.s ? t + "?" : t);
        }
      }
    case "lit":
      return v.x === "true" ? lit("false") : v.x === "false" ? lit("true") : str(v.x);
    case "obj":
      return v.m.length > 0 ? obj(v.m.slice(1)) : obj([["x", num(1)]]);
    case "arr":
      return v.v.length > 1 ? arr([...v.v].reverse()) : arr([...v.v, num(0)]);
    default:
      return num(0);
  }
}

/** The same value of another JSON type. */
function typeConfused(v: Json): Json {
  switch (v.t) {
    case "num":
      return str(v.x);
    case "str":
      return /^-?(0|[1-9]\d*)(\.\d+)?$/.test(v.s) ? num(v.s) : arr([str(v.s)]);
    case "lit":
      return str(v.x);
    case "arr":
      return obj(v.v.map((x, i) => [String(i), x]));
    case "obj":
      return arr([v]);
    default:
      return v;
  }
}

function scalarSlots(args: Obj): Slot[] {
  return slots(args, []).filter((s) => isScalar(getSlot(s)));
}

function respellTree(v: Json, d: Dice): Json {
  switch (v.t) {
    case "obj": {
      const m: [string, Json][] = v.m.map(([k, x]) => [k, respellTree(x, d)]);
      return obj(d.chance(0.3) ? d.shuffle(m) : m);
    }
    case "arr":
      return arr(v.v.map((x) => respellTree(x, d)));
    case "num":
      return d.chance(0.75) ? num(respell(v.x, d)) : v;
    default:
      return v;
  }
}

function reorderTree(v: Json, d: Dice): Json {
  if (v.t === "obj") {
    const m: [string, Json][] = v.m.map(([k, x]) => [k, reorderTree(x, d)]);
    if (m.length > 1) m.push(m.shift()!);
    return obj(d.shuffle(m));
  }
  if (v.t === "arr") return arr(v.v.map((x) => reorderTree(x, d)));
  return v;
}

const EXTRA_FIELDS: [string, () => Json][] = [
  ["units", () => str("metric")],
  ["debug", () => lit("true")],
  ["confidence", () => num("0.87")],
  ["lang", () => str("auto")],
  ["_comment", () => str("généré automatiquement")],
  ["dry_run", () => lit("false")],
  ["timeout", () => num("30.0")],
  ["page", () => num(1)],
  ["額", () => num("1e3")],
];

/** Positions of the structural closers of a JSON text (outside strings). */
function closers(t: string): number[] {
  const out: number[] = [];
  let inString = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "}" || c === "]") out.push(i);
  }
  return out;
}

/** Wraps a complete JSON text the way models do. `tail` allows prose after it. */
function wrap(j: string, d: Dice, p: Pack, tool: string, tail: boolean): string {
  let before = d.chance(0.8) ? d.pick(p.before) : d.pick(PACKS.en.before);
  if (d.chance(0.3)) before = d.pick(p.replies) + " " + before;
  const after = tail ? d.pick(p.after) : "";
  switch (
    d.weighted(
      [[0, 14], [1, 12], [2, 12], [3, 14], [4, 9], [5, 9], [6, 5], [7, 2], [8, 2], [9, 5]] as const,
    )
  ) {
    case 0:
      return j;
    case 1:
      return before + d.pick([" ", "\n", "\n\n"]) + j;
    case 2:
      return tail ? j + d.pick(["\n\n", " ", "\n"]) + after : d.pick(["\n", "  "]) + j + "\n";
    case 3:
      return (d.chance(0.5) ? before + "\n\n" : "") + d.pick(["```json\n", "```\n", "~~~json\n"]) +
        j + "\n```" +
        (tail && d.chance(0.5) ? "\n\n" + after : "");
    case 4:
      return before + "\n" + j + "\n" + after;
    case 5:
      return d.chance(0.7) ? `<tool_call>\n${j}\n</tool_call>` : `<tool_call>${j}</tool_call>`;
    case 6:
      return `<think>\n${d.pick(p.before)} ${d.pick(PACKS.en.before)}\n</think>\n\n${j}`;
    case 7:
      return `<|python_tag|>${j}<|eom_id|>`;
    case 8:
      return `Action: ${tool}\nAction Input: ${j}`;
    default:
      return `${d.pick(p.replies)}\n${d.pick(p.before)}\n${j}`;
  }
}

function replyProse(d: Dice, p: Pack): string {
  const n = d.range(1, 4);
  const parts: string[] = [];
  for (let k = 0; k < n; k++) {
    parts.push(d.chance(0.85) ? d.pick(p.replies) : d.pick(PACKS.en.replies));
  }
  return parts.join(d.pick([" ", "\n", "\n\n"]));
}

/** One model output for `g`, meant to have parse status `status`. */
function output(kind: string, g: Gold, d: Dice, p: Pack): string {
  const call: Call = g.call ?? { name: g.tool.name, args: obj([]) };
  const sp = outputSpell(d);
  const name = call.name;
  const args = clone(call.args) as Obj;
  const asText = (v: Json, s: Spell = sp) => write(v, s);
  const done = (v: Json, tail = true) => wrap(asText(v), d, p, name, tail);
  switch (kind) {
    // ---- ok
    case "exact":
      return done(callTree(str(name), args, d));
    case "respelled": {
      sp.esc = 2;
      sp.slash = d.chance(0.5);
      const t = callTree(str(name), respellTree(args, d), d);
      if (d.chance(0.1)) return wrap(asText(t).replace('"name"', '"n\\u0061me"'), d, p, name, true);
      return done(t);
    }
    case "reordered":
      return done(obj([["arguments", reorderTree(args, d)], ["name", str(name)]]));
    case "wrong_value": {
      const ss = scalarSlots(args);
      const all = ss.length > 0 ? ss : slots(args, []);
      if (all.length === 0) args.m.push(["query", text(d, p)]);
      for (let k = d.range(1, 3); k > 0 && all.length > 0; k--) {
        const s = d.pick(all);
        setSlot(s, wrongValue(getSlot(s), d, p));
      }
      return done(callTree(str(name), args, d));
    }
    case "missing_key": {
      for (let k = d.range(1, 2); k > 0; k--) {
        const ss = slots(args, []).filter((s) => s.parent.t === "obj");
        if (ss.length === 0) break;
        const s = d.chance(0.6) && args.m.length > 0
          ? { parent: args, at: d.int(args.m.length) }
          : d.pick(ss);
        (s.parent as Obj).m.splice(s.at, 1);
      }
      return done(callTree(str(name), args, d));
    }
    case "extra_key": {
      const objs = [args, ...slots(args, []).map(getSlot).filter((v): v is Obj => v.t === "obj")];
      for (let k = d.range(1, 2); k > 0; k--) {
        const [kk, f] = d.pick(EXTRA_FIELDS);
        const target = d.chance(0.7) ? args : d.pick(objs);
        if (!target.m.some(([x]) => x === kk)) {
          target.m.splice(d.int(target.m.length + 1), 0, [kk, f()]);
        }
      }
      return done(callTree(str(name), args, d));
    }
    case "wrong_name": {
      if (d.chance(0.3)) {
        const ss = scalarSlots(args);
        if (ss.length > 0) {
          const s = d.pick(ss);
          setSlot(s, wrongValue(getSlot(s), d, p));
        }
      }
      return done(callTree(str(nearName(name, d)), args, d));
    }
    case "list_wrapped":
      return done(arr([callTree(str(name), args, d)]));
    case "nonfinite": {
      const ss = scalarSlots(args).filter((s) => getSlot(s).t === "num");
      const v = lit(d.pick(["NaN", "Infinity", "-Infinity"]));
      const bad = d.chance(0.2) ? num(d.pick(["1e999", "-1E400", "1.5e309"])) : v;
      if (ss.length > 0) setSlot(d.pick(ss), bad);
      else args.m.push(["score", bad]);
      return done(callTree(str(name), args, d));
    }
    case "duplicate_key": {
      if (d.chance(0.3)) {
        const t = asText(callTree(str(name), args, d));
        const dup = `{"name"${sp.colon}${quote(nearName(name, d), sp)}${sp.comma}`;
        return wrap(dup + t.slice(1), d, p, name, true);
      }
      if (args.m.length === 0) args.m.push(["q", str("x")]);
      const at = d.int(args.m.length);
      const [k, v] = args.m[at]!;
      const other: [string, Json] = [k, wrongValue(v, d, p)];
      // Python keeps the last value: the wrong one first still matches, the wrong one last does not.
      if (d.chance(0.5)) args.m.splice(at, 0, other);
      else args.m.splice(at + 1, 0, other);
      return done(callTree(str(name), args, d));
    }
    case "type_confused": {
      const ss = slots(args, []);
      if (ss.length === 0) args.m.push(["count", str("3")]);
      else {
        const s = d.pick(ss);
        setSlot(s, typeConfused(getSlot(s)));
      }
      return done(callTree(str(name), args, d));
    }
    case "back_to_back": {
      const first = asText(callTree(str(name), args, d));
      const second = d.chance(0.5)
        ? asText(callTree(str("get_time"), obj([]), d))
        : asText(callTree(str(name), clone(args), d));
      return wrap(first + d.pick(["", "\n", "\n\n"]) + second, d, p, name, true);
    }
    // ---- invalid_json
    case "truncated": {
      const t = asText(
        d.chance(0.1) ? arr([callTree(str(name), args, d)]) : callTree(str(name), args, d),
      );
      let cut = t.length <= 2
        ? 1
        : d.chance(0.6)
        ? d.range(Math.floor(t.length * 0.6), t.length - 1)
        : d.range(1, t.length - 1);
      if ((t.charCodeAt(cut) & 0xfc00) === 0xdc00) cut++;
      if (cut >= t.length) cut = t.length - 1;
      return wrap(t.slice(0, cut), d, p, name, false);
    }
    case "trailing_comma": {
      sp.trailingAt = args.m.length > 0 && d.chance(0.6) ? 1 : 0;
      return done(callTree(str(name), args, d));
    }
    case "single_quotes":
      sp.quote = "'";
      sp.python = d.chance(0.5);
      return done(callTree(str(name), args, d));
    case "bare_keys":
      sp.bareKeys = true;
      return done(callTree(str(name), args, d));
    case "mismatched": {
      const t = asText(callTree(str(name), args, d));
      const cs = closers(t);
      const at = d.chance(0.5) ? cs[cs.length - 1]! : d.pick(cs);
      const flipped = t[at] === "}" ? "]" : "}";
      const broken = d.chance(0.7)
        ? t.slice(0, at) + flipped + t.slice(at + 1)
        : t.slice(0, at) + t.slice(at + 1);
      return wrap(broken, d, p, name, false);
    }
    case "raw_control": {
      sp.rawControl = true;
      const ss = scalarSlots(args).filter((s) => getSlot(s).t === "str");
      const ctl = d.pick(["\n", "\t", "\r\n", "\u0001", "\u001b[0m"]);
      if (ss.length > 0) {
        const s = d.pick(ss);
        const v = getSlot(s) as { t: "str"; s: string };
        const at = d.int(v.s.length + 1);
        setSlot(s, str(v.s.slice(0, at) + ctl + v.s.slice(at)));
        return done(callTree(str(name), args, d));
      }
      return done(callTree(str(name + ctl), args, d));
    }
    case "python_literals": {
      sp.python = true;
      const words = ["true", "false", "null"];
      const hasWord = slots(args, []).some((s) => {
        const v = getSlot(s);
        return v.t === "lit" && words.includes(v.x);
      });
      if (!hasWord) args.m.push(["verbose", lit("true")]);
      else if (d.chance(0.5)) args.m.push(["fallback", lit("null")]);
      return done(callTree(str(name), args, d));
    }
    case "comment": {
      const t = asText(callTree(str(name), args, d));
      const c = sp.nl !== "" && d.chance(0.5)
        ? `// ${d.pick(PACKS.en.before)}\n`
        : "/* tool call */ ";
      return done({ t: "raw", x: t.slice(0, 1) + c + t.slice(1) });
    }
    case "bad_escape": {
      const bad = {
        t: "raw",
        x: d.pick(['"C:\\Users\\bob"', '"\\x41BC"', '"it\\\'s"', '"\\u12G4"', '"\\U0001F600"']),
      } as Json;
      const ss = scalarSlots(args);
      if (ss.length > 0) setSlot(d.pick(ss), bad);
      else args.m.push(["path", bad]);
      return done(callTree(str(name), args, d));
    }
    case "bad_number": {
      const bad = {
        t: "raw",
        x: d.pick([
          "01",
          "+1",
          ".5",
          "1.",
          "0x1F",
          "1e",
          "-",
          "1_000",
          "-NaN",
          "nan",
          "infinity",
          "1.5.2",
          "\u22123",
          "١٢٣",
          "--1",
        ]),
      } as Json;
      const ss = scalarSlots(args).filter((s) => getSlot(s).t === "num");
      if (ss.length > 0) setSlot(d.pick(ss), bad);
      else args.m.push(["n", bad]);
      return done(callTree(str(name), args, d));
    }
    case "bracket_in_prose": {
      const lead = d.pick([
        "[TOOL_CALLS] ",
        "Step [1/2]: ",
        "{thinking} ",
        "[draft] ",
        "Options: [a, b]\n",
      ]);
      return lead +
        asText(d.chance(0.4) ? arr([callTree(str(name), args, d)]) : callTree(str(name), args, d));
    }
    case "odd_whitespace": {
      sp.nl = "\n";
      sp.indent = d.pick(["\u00a0\u00a0", "\u3000", "\u2003", " \ufeff"]);
      sp.colon = ": ";
      return done(callTree(str(name), args, d));
    }
    // ---- invalid_shape
    case "extra_top_key": {
      const t = callTree(str(name), args, d);
      const extra: [string, Json] = d.pick<[string, Json]>([
        ["id", str(`call_${hex(d, 8)}`)],
        ["type", str("function")],
        ["thought", text(d, p)],
        ["confidence", num(floatLex(d))],
      ]);
      t.m.splice(d.int(3), 0, extra);
      return done(t);
    }
    case "parameters":
      return done(
        obj([["name", str(name)], [d.pick(["parameters", "args", "params", "input"]), args]]),
      );
    case "arguments_string":
      return done(
        obj([["name", str(name)], ["arguments", str(asText(args, lineSpell(d, d.chance(0.5))))]]),
      );
    case "two_calls": {
      const second = d.chance(0.4)
        ? callTree(str(name), clone(args), d)
        : callTree(str(d.pick(TOOLS).name), obj([]), d);
      return done(arr([callTree(str(name), args, d), second]));
    }
    case "openai": {
      const fn = obj([
        ["name", str(name)],
        ["arguments", d.chance(0.6) ? str(asText(args, lineSpell(d, false))) : args],
      ]);
      const t: [string, Json][] = [["type", str("function")], ["function", fn]];
      if (d.chance(0.5)) t.unshift(["id", str(`call_${hex(d, 24)}`)]);
      return done(d.chance(0.3) ? arr([obj(t)]) : obj(t));
    }
    case "anthropic":
      return done(obj([
        ["type", str("tool_use")],
        ["id", str(`toolu_01${hex(d, 22)}`)],
        ["name", str(name)],
        ["input", args],
      ]));
    case "bad_fields":
      return done(
        d.pick<() => Json>([
          () => obj([["name", str("")], ["arguments", args]]),
          () => obj([["name", lit("null")], ["arguments", args]]),
          () => obj([["name", arr([str(name)])], ["arguments", args]]),
          () => obj([["arguments", args]]),
          () => obj([["name", str(name)], ["arguments", arr(args.m.map(([, x]) => x))]]),
          () => obj([["name", str(name)], ["arguments", lit("null")]]),
          () => obj([["name", str(name)]]),
        ])(),
      );
    case "bare_arguments":
      return done(args);
    case "wrapped":
      return done(
        d.pick<() => Json>([
          () => obj([["tool_calls", arr([callTree(str(name), args, d)])]]),
          () => obj([["call", callTree(str(name), args, d)]]),
          () =>
            obj([[
              "function_call",
              obj([["name", str(name)], ["arguments", str(asText(args, lineSpell(d, false)))]]),
            ]]),
        ])(),
      );
    case "leading_array": {
      const lead = d.pick(["Result: [1, 2, 3]\n", "[]\n", 'Tags: ["a"]\n', "[[0.5]] then\n"]);
      return lead + asText(callTree(str(name), args, d));
    }
    // ---- no_json
    case "prose":
      return replyProse(d, p);
    case "empty":
      return d.pick(["", " ", "\n", "\n\n", "\t"]);
    case "closers_only":
      return `${d.pick(p.replies)} :-] ${d.pick(["}", "]]", "} done"])}`;
    default:
      throw new Error(`unknown output kind ${kind}`);
  }
}

// ------------------------------------------------------------------ prompts

function leafStrings(v: Json, out: string[]): string[] {
  if (v.t === "obj") { for (const [, x] of v.m) leafStrings(x, out); }
  else if (v.t === "arr") { for (const x of v.v) leafStrings(x, out); }
  else if (v.t === "str" && v.cat) out.push(v.s);
  return out;
}

function signature(t: Tool, keys: string[], d: Dice): string {
  if (d.chance(0.08)) {
    const props = keys.map((k) =>
      `${JSON.stringify(k)}: {"type": "${d.pick(["string", "number", "object"])}"}`
    );
    return `{"name": ${JSON.stringify(t.name)}, "description": ${JSON.stringify(t.about)}, ` +
      `"parameters": {"type": "object", "properties": {${props.join(", ")}}}}`;
  }
  return `- ${t.name}(${keys.join(", ")}): ${t.about}`;
}

function promptText(d: Dice, who: Identity, g: Gold): string {
  const p = PACKS[who.lang];
  const call = g.call;
  const keys = call ? call.args.m.map(([k]) => k) : ["…"];
  const tools = [signature(g.tool, keys, d)];
  for (let k = d.weighted([[0, 8], [1, 2], [2, 0.6], [4, 0.2]] as const); k > 0; k--) {
    const t = d.pick(TOOLS);
    tools.push(signature(t, ["query"], d));
  }
  d.shuffle(tools);
  const values = call && d.chance(0.4) ? leafStrings(call.args, []).slice(0, 2) : [];
  const opener = d.chance(0.5) ? [d.pick(p.asks)] : [];
  const ask = [...opener, d.pick(p.phrases), ...values].join(d.pick([" ", "\n", " — "]));
  const system = d.chance(0.7) ? "" : d.chance(0.7) ? p.system + "\n" : PACKS.en.system + "\n";
  const extra = d.chance(0.04)
    ? "\n" + (leafStrings(longText(d, p, d.range(250, 1600)), [])[0] ?? "")
    : "";
  switch (d.weighted([[0, 30], [1, 10], [2, 10], [3, 20], [4, 30]] as const)) {
    case 4:
      return `${system}${tools.join("\n")}\nUser: ${ask}${extra}\nAssistant:`;
    case 0:
      return `<|im_start|>system\n${system}# Tools\n${
        tools.join("\n")
      }<|im_end|>\n<|im_start|>user\n${ask}${extra}<|im_end|>\n<|im_start|>assistant\n`;
    case 1:
      return `<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n${system}${
        tools.join("\n")
      }<|eot_id|>` +
        `<|start_header_id|>user<|end_header_id|>\n\n${ask}${extra}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`;
    case 2:
      return `### System\n${system}\n### Tools\n${
        tools.join("\n")
      }\n\n### User\n${ask}${extra}\n\n### Assistant\n`;
    default:
      return `<start_of_turn>user\n${system}${
        tools.join("\n")
      }\n\n${ask}${extra}<end_of_turn>\n<start_of_turn>model\n`;
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

// ------------------------------------------------------------------ rows

/** An id literal: as JSON.stringify writes it, or with every non-ASCII character escaped. */
function idLiteral(id: string, d: Dice): string {
  if (!/[^\x20-\x7e]|\//.test(id) || d.chance(0.6)) return JSON.stringify(id);
  return quote(id, {
    nl: "",
    indent: "",
    colon: ":",
    comma: ",",
    esc: 1,
    slash: d.chance(0.5),
    flatArrays: false,
    d,
  });
}

/** Joins top-level fields (already spelled) in one of a few layouts. */
function rowText(fields: [string, string][], spaced: boolean): string {
  const colon = spaced ? ": " : ":";
  return "{" + fields.map(([k, v]) => `"${k}"${colon}${v}`).join(spaced ? ", " : ",") + "}";
}

function exampleRow(d: Dice, who: Identity, rootId: string | null, g: Gold): string {
  const spaced = d.chance(0.4);
  const target = write(g.target, lineSpell(d, spaced));
  const fields: [string, string][] = [["example_id", idLiteral(who.id, d)], [
    "language",
    `"${who.lang}"`,
  ], ["target", target]];
  if (rootId !== null) fields.push(["root_id", idLiteral(rootId, d)]);
  else if (d.chance(0.5)) fields.push(["root_id", "null"]);
  if (d.chance(0.2)) {
    fields.push(d.pick<[string, string]>([
      ["split", '"test"'],
      ["source", '{"dataset":"heldout-varied","version":3}'],
      ["difficulty", d.pick(["0.75", "1E-1", "2"])],
      ["tags", '["travel","multi-turn","ünïcödé"]'],
      ["meta", '{"annotator":"a7","notes":"vérifié \\u2713"}'],
    ]));
  }
  if (d.chance(0.35)) d.shuffle(fields);
  return rowText(fields, spaced);
}

/** Whether `out` can be written into a line as the JSON value itself (see `wholeOutputs`). */
function wholeValue(out: string): boolean {
  if (!out.isWellFormed()) return false;
  try {
    const v = JSON.parse(out);
    return typeof v === "object" && v !== null;
  } catch {
    return false;
  }
}

function generationRow(
  d: Dice,
  id: string,
  digest: string,
  out: string,
  kind: string,
  whole = 0,
): string {
  // Valid JSON holds a line break only as whitespace (a string cannot): one line, as JSONL needs.
  const value = whole > 0 && wholeValue(out) && d.chance(whole)
    ? out.replace(/[\r\n]/g, " ")
    : JSON.stringify(out);
  const fields: [string, string][] = [["example_id", idLiteral(id, d)], [
    "prompt_sha256",
    `"${digest}"`,
  ], ["output", value]];
  if (d.chance(0.15)) {
    fields.push(d.pick<[string, string]>([
      ["model", '"held-out-7b-instruct"'],
      ["sample", "0"],
      ["latency_ms", String(Math.round(d.next() * 1e5) / 10)],
      ["finish_reason", kind === "truncated" ? '"length"' : '"stop"'],
      ["usage", `{"prompt_tokens":${d.range(50, 900)},"completion_tokens":${d.range(1, 700)}}`],
    ]));
  }
  if (d.chance(0.3)) d.shuffle(fields);
  return rowText(fields, d.chance(0.2));
}

function promptRow(d: Dice, id: string, digest: string, prompt: string | null): string {
  const fields: [string, string][] = [["example_id", idLiteral(id, d)], [
    "prompt_sha256",
    `"${digest}"`,
  ]];
  if (prompt !== null) fields.push(["prompt", JSON.stringify(prompt)]);
  if (d.chance(0.1)) fields.push(["template", d.pick(['"chatml"', '"llama3"', '"gemma"'])]);
  if (d.chance(0.3)) d.shuffle(fields);
  return rowText(fields, d.chance(0.2));
}

// ------------------------------------------------------------------ streaming to disk

class LineFile {
  #file: Deno.FsFile;
  #lines: string[] = [];
  #chars = 0;
  #enc = new TextEncoder();
  bytes = 0;

  constructor(file: Deno.FsFile) {
    this.#file = file;
  }

  static async create(path: string): Promise<LineFile> {
    return new LineFile(await Deno.open(path, { write: true, create: true, truncate: true }));
  }

  async push(line: string): Promise<void> {
    this.#lines.push(line);
    this.#chars += line.length + 1;
    if (this.#chars >= 1 << 20) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#lines.length === 0) return;
    const buf = this.#enc.encode(this.#lines.join("\n") + "\n");
    this.#lines = [];
    this.#chars = 0;
    for (let off = 0; off < buf.length;) off += await this.#file.write(buf.subarray(off));
    this.bytes += buf.length;
  }

  async close(): Promise<void> {
    await this.flush();
    this.#file.close();
  }
}

function permutation(seed: number, count: number, stream: number): Uint32Array {
  const d = new Dice(seed, 0, stream);
  const p = new Uint32Array(count);
  for (let i = 0; i < count; i++) p[i] = i;
  for (let i = count - 1; i > 0; i--) {
    const j = d.int(i + 1);
    const t = p[i]!;
    p[i] = p[j]!;
    p[j] = t;
  }
  return p;
}

interface Example {
  who: Identity;
  rootId: string | null;
  gold: Gold;
}

function example(seed: number, i: number): Example {
  const who = identity(seed, i);
  const root = rootOf(seed, i, who.lang);
  return { who, rootId: root === null ? null : identity(seed, root).id, gold: gold(seed, i, who) };
}

function prompt(
  seed: number,
  i: number,
  ex: Example,
): { text: string; shown: boolean; digest: string } {
  const d = new Dice(seed, i, S_PROMPT);
  const shown = d.chance(0.7);
  const text = promptText(d, ex.who, ex.gold);
  return { text, shown, digest: sha256(text) };
}

/**
 * Writes examples.jsonl, generations.jsonl and (unless `prompts` is false) prompts.jsonl to `dir`.
 *
 * @param dir An existing directory.
 * @param options Seed and size.
 * @returns The paths, row counts, intended status shares and file sizes.
 */
export async function writeVariedCorpus(
  dir: string,
  options: VariedCorpusOptions,
): Promise<VariedCorpusFiles> {
  const { seed, count } = options;
  const withPrompts = options.prompts !== false;
  const files = {
    examples: `${dir}/examples.jsonl`,
    generations: `${dir}/generations.jsonl`,
    prompts: `${dir}/prompts.jsonl`,
  };

  let dropped = 0;
  const ex = await LineFile.create(files.examples);
  for (let i = 0; i < count; i++) {
    const e = example(seed, i);
    if (e.gold.drop !== null) dropped++;
    await ex.push(exampleRow(new Dice(seed, i, S_SPELL), e.who, e.rootId, e.gold));
  }
  await ex.close();

  let promptBytes = 0;
  if (withPrompts) {
    const pf = await LineFile.create(files.prompts);
    for (const i of permutation(seed, count, S_ORDER_PROMPT)) {
      const e = example(seed, i);
      const pr = prompt(seed, i, e);
      await pf.push(
        promptRow(new Dice(seed, i, S_SPELL + 100), e.who.id, pr.digest, pr.shown ? pr.text : null),
      );
    }
    await pf.close();
    promptBytes = pf.bytes;
  }

  let generations = 0;
  const gf = await LineFile.create(files.generations);
  for (const i of permutation(seed, count, S_ORDER_GEN)) {
    const e = example(seed, i);
    const d = new Dice(seed, i, S_GEN);
    if (e.gold.drop !== null && d.chance(0.4)) continue; // a dropped example may lack its generation
    const [status, kind] = d.weighted(KINDS);
    const out = output(kind, e.gold, d, PACKS[e.who.lang]);
    if (e.gold.drop === null) options.trace?.(e.who.id, status, `${status}/${kind}`);
    const digest = prompt(seed, i, e).digest;
    await gf.push(generationRow(d, e.who.id, digest, out, kind, options.wholeOutputs));
    generations++;
  }
  await gf.close();

  return {
    examples: files.examples,
    generations: files.generations,
    ...(withPrompts ? { prompts: files.prompts } : {}),
    rows: { examples: count, generations, dropped },
    statusShare: statusShares(),
    bytes: { examples: ex.bytes, generations: gf.bytes, prompts: promptBytes },
  };
}
