// Data tables for make_demo.ts: tool schemas, localized vocabulary and one example generator per
// tool. A generator draws every random choice first, then returns a function that renders the same
// request in each language: the user query, the gold arguments and the "local" spellings a model
// might wrongly copy from the query into the arguments (Tokyo → 東京, ZRH → Zürich).

export type Lang = "en" | "de" | "fr" | "es" | "ja";
export const LANGS: readonly Lang[] = ["en", "de", "fr", "es", "ja"];
const LI = { en: 0, de: 1, fr: 2, es: 3, ja: 4 } as const;

/** A float literal: `new F(150)` is written `150.0`, never `150`. */
export class F {
  constructor(readonly v: number) {}
}
export type Json = null | boolean | number | string | F | Json[] | { [k: string]: Json };
export type Obj = { [k: string]: Json };

/** The random source the generators draw from (the seeded PRNG lives in make_demo.ts). */
export interface Rand {
  float(): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
  sample<T>(xs: readonly T[], k: number): T[];
}

export interface Variant {
  args: Obj;
  query: string;
  local: Record<string, string>;
}
export interface Tool {
  schema: Obj;
  slips: string[];
  gen: (r: Rand) => (lang: Lang) => Variant;
}

type T5 = readonly [string, string, string, string, string];
const t = (x: T5, lang: Lang): string => x[LI[lang]];

// ---- Localized formatting ------------------------------------------------------------------

const MONTHS: Record<Lang, string[]> = {
  en: ["March", "April", "May"],
  de: ["März", "April", "Mai"],
  fr: ["mars", "avril", "mai"],
  es: ["marzo", "abril", "mayo"],
  ja: ["3月", "4月", "5月"],
};
const MONTH_DAYS = [31, 30, 31]; // March, April, May 2025

/** A day in spring 2025, as `[monthIndex (0 = March), day]`. */
type Day = [number, number];
const iso = ([m, d]: Day): string => `2025-0${m + 3}-${String(d).padStart(2, "0")}`;
function addDays([m, d]: Day, n: number): Day {
  d += n;
  while (d > MONTH_DAYS[m]!) d -= MONTH_DAYS[m++]!;
  return [m, d];
}
const randomDay = (r: Rand): Day => addDays([0, 3], 1 + r.int(50)); // 2025-03-04 .. 2025-04-22

function date(lang: Lang, [m, d]: Day): string {
  const month = MONTHS[lang][m]!;
  return {
    en: `${month} ${d}`,
    de: `${d}. ${month}`,
    fr: `${d === 1 ? "1er" : d} ${month}`,
    es: `${d} de ${month}`,
    ja: `${month}${d}日`,
  }[lang];
}
function clock(lang: Lang, h: number, m: number): string {
  const mm = String(m).padStart(2, "0");
  return {
    en: `${h % 12 || 12}${m ? `:${mm}` : ""} ${h < 12 ? "AM" : "PM"}`,
    de: `${h}:${mm} Uhr`,
    fr: `${h} h${m ? ` ${mm}` : ""}`,
    es: `${h}:${mm}`,
    ja: `${h}時${m ? `${m}分` : ""}`,
  }[lang];
}
/** A number as a user would type it: 1,200.50 / 1.200,50 / 1 200,50 / 1200,50 / 1,200.50. */
function num(lang: Lang, v: number, decimals: number): string {
  const [int, frac] = v.toFixed(decimals).split(".");
  const group = { en: ",", de: ".", fr: "\u202f", es: int!.length > 4 ? "." : "", ja: "," }[lang];
  const grouped = int!.replace(/\B(?=(\d{3})+$)/g, group);
  return frac === undefined ? grouped : grouped + (lang === "en" || lang === "ja" ? "." : ",") +
    frac;
}
const price = (lang: Lang, v: number): string => num(lang, v, Number.isInteger(v) ? 0 : 2);
function and(lang: Lang, xs: string[]): string {
  if (xs.length < 2) return xs.join("");
  const last = xs[xs.length - 1]!;
  const word = {
    en: " and ",
    de: " und ",
    fr: " et ",
    es: /^h?i/i.test(last) ? " e " : " y ",
    ja: "と",
  };
  return xs.slice(0, -1).join(lang === "ja" ? "、" : ", ") + word[lang] + last;
}

// ---- Shared vocabulary -----------------------------------------------------------------------

interface City {
  id: string;
  n: T5;
  iata?: string;
}
const CITIES: City[] = [
  { id: "Zürich", n: ["Zürich", "Zürich", "Zurich", "Zúrich", "チューリッヒ"], iata: "ZRH" },
  {
    id: "São Paulo",
    n: ["São Paulo", "São Paulo", "São Paulo", "São Paulo", "サンパウロ"],
    iata: "GRU",
  },
  { id: "Paris", n: ["Paris", "Paris", "Paris", "París", "パリ"], iata: "CDG" },
  { id: "Munich", n: ["Munich", "München", "Munich", "Múnich", "ミュンヘン"], iata: "MUC" },
  { id: "Lisbon", n: ["Lisbon", "Lissabon", "Lisbonne", "Lisboa", "リスボン"], iata: "LIS" },
  { id: "Kraków", n: ["Kraków", "Krakau", "Cracovie", "Cracovia", "クラクフ"], iata: "KRK" },
  {
    id: "Reykjavík",
    n: ["Reykjavík", "Reykjavík", "Reykjavik", "Reikiavik", "レイキャビク"],
    iata: "KEF",
  },
  { id: "Tokyo", n: ["Tokyo", "Tokio", "Tokyo", "Tokio", "東京"], iata: "HND" },
  {
    id: "Montréal",
    n: ["Montréal", "Montreal", "Montréal", "Montreal", "モントリオール"],
    iata: "YUL",
  },
  { id: "Málaga", n: ["Málaga", "Málaga", "Malaga", "Málaga", "マラガ"], iata: "AGP" },
  { id: "Vienna", n: ["Vienna", "Wien", "Vienne", "Viena", "ウィーン"], iata: "VIE" },
  {
    id: "Barcelona",
    n: ["Barcelona", "Barcelona", "Barcelone", "Barcelona", "バルセロナ"],
    iata: "BCN",
  },
  {
    id: "New York",
    n: ["New York", "New York", "New York", "Nueva York", "ニューヨーク"],
    iata: "JFK",
  },
  {
    id: "Copenhagen",
    n: ["Copenhagen", "Kopenhagen", "Copenhague", "Copenhague", "コペンハーゲン"],
    iata: "CPH",
  },
  {
    id: "Düsseldorf",
    n: ["Düsseldorf", "Düsseldorf", "Düsseldorf", "Düsseldorf", "デュッセルドルフ"],
    iata: "DUS",
  },
  { id: "Kyoto", n: ["Kyoto", "Kyoto", "Kyoto", "Kioto", "京都"] },
];
const localCity = (c: City, lang: Lang): Record<string, string> =>
  t(c.n, lang) === c.id ? {} : { [c.id]: t(c.n, lang) };

const EMAILS = [
  "marta.lopez@example.com",
  "jonas.weber@example.de",
  "yuki.tanaka@example.jp",
  "chloe.martin@example.fr",
  "sam.okafor@example.com",
  "ines.pereira@example.pt",
];

const schema = (name: string, description: string, properties: Obj, required: string[]): Obj => ({
  name,
  description,
  parameters: { type: "object", properties, required },
});
const S = { type: "string" };
const enumOf = (...values: string[]): Obj => ({ type: "string", enum: values });
const DATE = { type: "string", format: "date" };
const DATETIME = { type: "string", description: "Local time, YYYY-MM-DDTHH:MM:SS" };
const INT = { type: "integer", minimum: 1 };
const NUM = { type: "number" };
const BOOL = { type: "boolean" };
const list = (items: Obj): Obj => ({ type: "array", items });

// ---- The tools -------------------------------------------------------------------------------

const UNITS: Record<string, T5> = {
  celsius: ["Celsius", "Celsius", "degrés Celsius", "grados Celsius", "摂氏"],
  fahrenheit: ["Fahrenheit", "Fahrenheit", "degrés Fahrenheit", "grados Fahrenheit", "華氏"],
};
const getWeather: Tool = {
  schema: schema("get_weather", "Weather forecast for a city and day.", {
    location: S,
    date: DATE,
    units: enumOf("celsius", "fahrenheit"),
    include_hourly: BOOL,
  }, ["location", "date"]),
  slips: ["get_current_weather", "weather_forecast"],
  gen: (r) => {
    const c = r.pick(CITIES), day = randomDay(r), units = r.chance(0.3) ? "fahrenheit" : "celsius";
    const hourly = r.chance(0.35);
    const args: Obj = { location: c.id, date: iso(day), units };
    if (hourly) args.include_hourly = true;
    return (lang) => {
      const [city, d, u] = [t(c.n, lang), date(lang, day), t(UNITS[units]!, lang)];
      const query = {
        en: `What will the weather be like in ${city} on ${d}? Give me the temperature in ${u}${
          hourly ? ", with an hourly breakdown" : ""
        }.`,
        de: `Wie wird das Wetter in ${city} am ${d}? Bitte die Temperatur in ${u}${
          hourly ? " und mit stündlicher Vorhersage" : ""
        }.`,
        fr: `Quel temps fera-t-il à ${city} le ${d} ? Donne-moi la température en ${u}${
          hourly ? ", avec le détail heure par heure" : ""
        }.`,
        es: `¿Qué tiempo hará en ${city} el ${d}? Dame la temperatura en ${u}${
          hourly ? ", con el pronóstico por horas" : ""
        }.`,
        ja: `${d}の${city}の天気を教えてください。気温は${u}で${
          hourly ? "、1時間ごとの予報も" : ""
        }お願いします。`,
      }[lang];
      return { args, query, local: localCity(c, lang) };
    };
  },
};

const AMENITIES: Record<string, T5> = {
  free_wifi: ["free Wi-Fi", "kostenlosem WLAN", "Wi-Fi gratuit", "wifi gratis", "無料Wi-Fi"],
  pool: ["a pool", "Pool", "piscine", "piscina", "プール"],
  parking: ["parking", "Parkplatz", "parking", "aparcamiento", "駐車場"],
  breakfast: ["breakfast", "Frühstück", "petit-déjeuner", "desayuno", "朝食"],
  gym: ["a gym", "Fitnessraum", "salle de sport", "gimnasio", "ジム"],
};
const searchHotels: Tool = {
  schema: schema("search_hotels", "Search hotels with availability for the given stay.", {
    city: S,
    check_in: DATE,
    check_out: DATE,
    guests: INT,
    filters: {
      type: "object",
      properties: {
        max_price_per_night: NUM,
        min_rating: NUM,
        amenities: list(enumOf(...Object.keys(AMENITIES))),
      },
    },
  }, ["city", "check_in", "check_out", "guests"]),
  slips: ["hotel_search", "find_hotels"],
  gen: (r) => {
    const c = r.pick(CITIES), din = randomDay(r), dout = addDays(din, 1 + r.int(5));
    const guests = 1 + r.int(4), max = r.pick([120, 150, 180, 200, 250, 99.5]);
    const rating = r.chance(0.5) ? r.pick([4, 4.5, 3.5]) : null;
    const am = r.sample(Object.keys(AMENITIES), 1 + r.int(2));
    const filters: Obj = { max_price_per_night: new F(max) };
    if (rating !== null) filters.min_rating = new F(rating);
    filters.amenities = am;
    const args: Obj = { city: c.id, check_in: iso(din), check_out: iso(dout), guests, filters };
    return (lang) => {
      const [city, a, b, p] = [t(c.n, lang), date(lang, din), date(lang, dout), price(lang, max)];
      const ams = and(lang, am.map((k) => t(AMENITIES[k]!, lang)));
      const st = rating === null ? "" : num(lang, rating, Number.isInteger(rating) ? 0 : 1);
      const query = {
        en: `Find me a hotel in ${city} from ${a} to ${b} for ${guests} ${
          guests === 1 ? "guest" : "guests"
        }, at most ${p} EUR a night, with ${ams}${st && `, rated at least ${st} stars`}.`,
        de: `Such mir ein Hotel in ${city} vom ${a} bis ${b} für ${guests} ${
          guests === 1 ? "Person" : "Personen"
        }, höchstens ${p} EUR pro Nacht, mit ${ams}${st && `, mindestens ${st} Sterne`}.`,
        fr: `Trouve-moi un hôtel à ${city} du ${a} au ${b} pour ${guests} ${
          guests === 1 ? "personne" : "personnes"
        }, ${p} EUR maximum par nuit, avec ${ams}${st && `, noté au moins ${st} étoiles`}.`,
        es: `Búscame un hotel en ${city} del ${a} al ${b} para ${guests} ${
          guests === 1 ? "persona" : "personas"
        }, como máximo ${p} EUR por noche, con ${ams}${st && `, de al menos ${st} estrellas`}.`,
        ja:
          `${a}から${b}まで、${city}で${guests}名で泊まれるホテルを探してください。1泊${p}ユーロ以下、${ams}付き${
            st && `、評価${st}以上`
          }でお願いします。`,
      }[lang];
      return { args, query, local: localCity(c, lang) };
    };
  },
};

const CABINS: Record<string, T5> = {
  economy: ["economy", "Economy", "classe économique", "clase turista", "エコノミー"],
  premium_economy: [
    "premium economy",
    "Premium Economy",
    "premium économique",
    "turista prémium",
    "プレミアムエコノミー",
  ],
  business: ["business class", "Business Class", "classe affaires", "business", "ビジネスクラス"],
};
function pax(lang: Lang, a: number, k: number): string {
  const w = {
    en: [`${a} ${a > 1 ? "adults" : "adult"}`, `${k} ${k > 1 ? "children" : "child"}`],
    de: [`${a} ${a > 1 ? "Erwachsene" : "Erwachsenen"}`, `${k} ${k > 1 ? "Kinder" : "Kind"}`],
    fr: [`${a} ${a > 1 ? "adultes" : "adulte"}`, `${k} ${k > 1 ? "enfants" : "enfant"}`],
    es: [`${a} ${a > 1 ? "adultos" : "adulto"}`, `${k} ${k > 1 ? "niños" : "niño"}`],
    ja: [`大人${a}名`, `子ども${k}名`],
  }[lang];
  return and(lang, k ? w : w.slice(0, 1));
}
const FLIGHT_CITIES = CITIES.filter((c) => c.iata);
const bookFlight: Tool = {
  schema: schema("book_flight", "Book a flight. Airports are IATA codes.", {
    origin: S,
    destination: S,
    departure_date: DATE,
    return_date: DATE,
    passengers: {
      type: "object",
      properties: { adults: INT, children: { type: "integer", minimum: 0 } },
    },
    cabin: enumOf(...Object.keys(CABINS)),
    nonstop: BOOL,
  }, ["origin", "destination", "departure_date", "passengers", "cabin", "nonstop"]),
  slips: ["book_flights", "search_flights"],
  gen: (r) => {
    const [o, d] = r.sample(FLIGHT_CITIES, 2) as [City, City];
    const dep = randomDay(r), ret = r.chance(0.6) ? addDays(dep, 2 + r.int(10)) : null;
    const adults = 1 + r.int(3), children = r.chance(0.3) ? 1 + r.int(2) : 0;
    const cabin = r.pick(Object.keys(CABINS)), nonstop = r.chance(0.5);
    const args: Obj = { origin: o.iata!, destination: d.iata!, departure_date: iso(dep) };
    if (ret) args.return_date = iso(ret);
    Object.assign(args, { passengers: { adults, children }, cabin, nonstop });
    return (lang) => {
      const [from, to, cab, p] = [
        t(o.n, lang),
        t(d.n, lang),
        t(CABINS[cabin]!, lang),
        pax(lang, adults, children),
      ];
      const [dd, rr] = [date(lang, dep), ret && date(lang, ret)];
      const query = {
        en: `Book ${/^[aeiou]/.test(nonstop ? "n" : cab) ? "an" : "a"} ${
          nonstop ? "nonstop " : ""
        }${cab} flight from ${from} to ${to} on ${dd}${
          rr ? `, returning on ${rr}` : ", one way"
        }, for ${p}.${nonstop ? "" : " Connections are fine."}`,
        de: `Buche einen ${
          nonstop ? "Direktflug" : "Flug"
        } in der ${cab} von ${from} nach ${to} am ${dd}${
          rr ? `, zurück am ${rr}` : ", nur Hinflug"
        }, für ${p}.${nonstop ? "" : " Umsteigen ist okay."}`,
        fr: `Réserve un vol ${nonstop ? "direct " : ""}en ${cab} de ${from} à ${to} le ${dd}${
          rr ? `, retour le ${rr}` : ", aller simple"
        }, pour ${p}.${nonstop ? "" : " Les escales ne me dérangent pas."}`,
        es: `Reserva un vuelo ${nonstop ? "directo " : ""}en ${cab} de ${from} a ${to} el ${dd}${
          rr ? `, con vuelta el ${rr}` : ", solo ida"
        }, para ${p}.${nonstop ? "" : " Me da igual si tiene escalas."}`,
        ja: `${dd}の${from}発${to}行きの${nonstop ? "直行便" : "便"}を${cab}で予約してください${
          rr ? `（帰りは${rr}）` : "（片道）"
        }。${p}です。${nonstop ? "" : "乗り継ぎがあっても構いません。"}`,
      }[lang];
      return { args, query, local: { [o.iata!]: t(o.n, lang), [d.iata!]: t(d.n, lang) } };
    };
  },
};

const CURRENCIES = ["EUR", "USD", "JPY", "CHF", "BRL", "GBP", "PLN", "DKK"];
const convertCurrency: Tool = {
  schema: schema("convert_currency", "Convert an amount between ISO 4217 currencies.", {
    amount: NUM,
    from_currency: S,
    to_currency: S,
  }, ["amount", "from_currency", "to_currency"]),
  slips: ["currency_converter", "get_exchange_rate"],
  gen: (r) => {
    // Amounts typed with decimals ("1,200.00") are gold floats; whole amounts are gold integers.
    const decimals = r.chance(0.5), [from, to] = r.sample(CURRENCIES, 2) as [string, string];
    const v = decimals
      ? r.pick([1200, 99.99, 2500.5, 49.9, 300, 18.75])
      : r.pick([100, 250, 500, 1000, 75, 12000]);
    const args: Obj = { amount: decimals ? new F(v) : v, from_currency: from, to_currency: to };
    return (lang) => {
      const a = num(lang, v, decimals ? 2 : 0);
      const query = {
        en: `How much is ${a} ${from} in ${to}?`,
        de: `Wie viel sind ${a} ${from} in ${to}?`,
        fr: `Combien font ${a} ${from} en ${to} ?`,
        es: `¿Cuánto son ${a} ${from} en ${to}?`,
        ja: `${a} ${from}は${to}でいくらですか？`,
      }[lang];
      return { args, query, local: {} };
    };
  },
};

const TITLES: T5[] = [
  [
    "Quarterly planning",
    "Quartalsplanung",
    "Planification trimestrielle",
    "Planificación trimestral",
    "四半期計画",
  ],
  ["Team lunch", "Team-Mittagessen", "Déjeuner d'équipe", "Comida de equipo", "チームランチ"],
  [
    "Project kickoff",
    "Projekt-Kickoff",
    "Lancement du projet",
    "Inicio del proyecto",
    "プロジェクトキックオフ",
  ],
  [
    "Budget review",
    "Budgetbesprechung",
    "Revue du budget",
    "Revisión del presupuesto",
    "予算レビュー",
  ],
  [
    "Dentist appointment",
    "Zahnarzttermin",
    "Rendez-vous chez le dentiste",
    "Cita con el dentista",
    "歯医者の予約",
  ],
  [
    "Welcome coffee for Zoë",
    "Willkommenskaffee für Zoë",
    "Café de bienvenue pour Zoë",
    "Café de bienvenida para Zoë",
    "ゾーイの歓迎コーヒー",
  ],
  [
    "Sprint retrospective",
    "Sprint-Retrospektive",
    "Rétrospective de sprint",
    "Retrospectiva del sprint",
    "スプリント振り返り",
  ],
];
const createEvent: Tool = {
  schema: schema("create_calendar_event", "Create an event in the user's calendar.", {
    title: S,
    start: DATETIME,
    duration_minutes: INT,
    attendees: list({ type: "string", format: "email" }),
    location: S,
  }, ["title", "start", "duration_minutes"]),
  slips: ["create_event", "add_calendar_event"],
  gen: (r) => {
    const title = r.pick(TITLES), day = randomDay(r), h = 8 + r.int(10), m = r.pick([0, 15, 30]);
    const dur = r.pick([30, 45, 60, 90]), people = r.sample(EMAILS, 1 + r.int(3));
    const loc = r.chance(0.4)
      ? r.pick(["Zoom", "Café Sperl", "Room B-204", "Microsoft Teams"])
      : null;
    const start = `${iso(day)}T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00`;
    return (lang) => {
      const [ti, d, c, ps] = [
        t(title, lang),
        date(lang, day),
        clock(lang, h, m),
        and(lang, people),
      ];
      const args: Obj = { title: ti, start, duration_minutes: dur, attendees: people };
      if (loc) args.location = loc;
      const query = {
        en: `Create a calendar event "${ti}" on ${d} at ${c} for ${dur} minutes and invite ${ps}.${
          loc ? ` Location: ${loc}.` : ""
        }`,
        de: `Erstelle einen Termin „${ti}“ am ${d} um ${c} für ${dur} Minuten und lade ${ps} ein.${
          loc ? ` Ort: ${loc}.` : ""
        }`,
        fr: `Crée un événement « ${ti} » le ${d} à ${c} pendant ${dur} minutes et invite ${ps}.${
          loc ? ` Lieu : ${loc}.` : ""
        }`,
        es: `Crea un evento «${ti}» el ${d} a las ${c}, de ${dur} minutos, e invita a ${ps}.${
          loc ? ` Lugar: ${loc}.` : ""
        }`,
        ja: `${d}${c}から${dur}分間、「${ti}」という予定を作成して、${ps}を招待してください。${
          loc ? `場所は${loc}です。` : ""
        }`,
      }[lang];
      return { args, query, local: {} };
    };
  },
};

const MAILS: [T5, T5][] = [
  [["Running late", "Verspätung", "En retard", "Llego tarde", "遅れます"], [
    "Hi, I'm running about 15 minutes late. Start without me.",
    "Hallo, ich verspäte mich um etwa 15 Minuten. Fangt ohne mich an.",
    "Bonjour, j'ai environ 15 minutes de retard. Commencez sans moi.",
    "Hola, llego unos 15 minutos tarde. Empezad sin mí.",
    "すみません、15分ほど遅れます。先に始めてください。",
  ]],
  [[
    "Invoice #2025-031",
    "Rechnung Nr. 2025-031",
    "Facture n° 2025-031",
    "Factura n.º 2025-031",
    "請求書 No. 2025-031",
  ], [
    "Please find the invoice for February attached. Payment is due within 30 days.",
    "Anbei die Rechnung für Februar. Zahlbar innerhalb von 30 Tagen.",
    "Veuillez trouver ci-joint la facture de février. Paiement sous 30 jours.",
    "Adjunto la factura de febrero. El pago vence en 30 días.",
    "2月分の請求書を添付します。30日以内にお支払いください。",
  ]],
  [[
    "Dinner on Friday?",
    "Abendessen am Freitag?",
    "Dîner vendredi ?",
    "¿Cena el viernes?",
    "金曜日に夕食でも？",
  ], [
    "Are you free for dinner on Friday at 8? I'd love to try that new place in the old town.",
    "Hast du Freitag um 8 Zeit zum Abendessen? Ich würde gern das neue Lokal in der Altstadt ausprobieren.",
    "Tu es libre vendredi à 20 h pour dîner ? J'aimerais essayer le nouveau restaurant de la vieille ville.",
    "¿Estás libre el viernes a las 8 para cenar? Me encantaría probar el sitio nuevo del casco antiguo.",
    "金曜日の8時に夕食はどうですか？旧市街の新しいお店に行ってみたいです。",
  ]],
  [[
    "Meeting notes",
    "Besprechungsnotizen",
    "Compte rendu de réunion",
    "Notas de la reunión",
    "会議メモ",
  ], [
    "Thanks everyone for today. The next review is on March 28; please send your slides by Wednesday.",
    "Danke euch allen für heute. Das nächste Review ist am 28. März; bitte schickt eure Folien bis Mittwoch.",
    "Merci à tous pour aujourd'hui. La prochaine revue a lieu le 28 mars ; envoyez vos slides avant mercredi.",
    "Gracias a todos por hoy. La próxima revisión es el 28 de marzo; enviad vuestras diapositivas antes del miércoles.",
    "本日はありがとうございました。次回のレビューは3月28日です。水曜日までにスライドを送ってください。",
  ]],
  [["Key handover", "Schlüsselübergabe", "Remise des clés", "Entrega de llaves", "鍵の受け渡し"], [
    "The keys are with the concierge. The Wi-Fi password is on the fridge.",
    "Die Schlüssel liegen beim Concierge. Das WLAN-Passwort hängt am Kühlschrank.",
    "Les clés sont chez le concierge. Le mot de passe du Wi-Fi est sur le frigo.",
    "Las llaves están en conserjería. La contraseña del wifi está en la nevera.",
    "鍵はコンシェルジュに預けてあります。Wi-Fiのパスワードは冷蔵庫に貼ってあります。",
  ]],
  [[
    "Happy birthday!",
    "Alles Gute zum Geburtstag!",
    "Joyeux anniversaire !",
    "¡Feliz cumpleaños!",
    "お誕生日おめでとう！",
  ], [
    "Happy birthday, Ana! 🎉 Have a wonderful day.",
    "Alles Gute zum Geburtstag, Ana! 🎉 Hab einen wunderschönen Tag.",
    "Joyeux anniversaire, Ana ! 🎉 Passe une merveilleuse journée.",
    "¡Feliz cumpleaños, Ana! 🎉 Que pases un día estupendo.",
    "アナ、お誕生日おめでとう！🎉 素敵な一日を。",
  ]],
];
const sendEmail: Tool = {
  schema: schema("send_email", "Send an email from the user's account.", {
    to: list({ type: "string", format: "email" }),
    subject: S,
    body: S,
    cc: list({ type: "string", format: "email" }),
  }, ["to", "subject", "body"]),
  slips: ["email_send", "compose_email"],
  gen: (r) => {
    const [subject, body] = r.pick(MAILS),
      people = r.sample(EMAILS, r.chance(0.3) ? 3 : 1 + r.int(2));
    const to = people.slice(0, people.length > 2 ? 2 : people.length), cc = people.slice(to.length);
    return (lang) => {
      const [s, b, ts, cs] = [t(subject, lang), t(body, lang), and(lang, to), and(lang, cc)];
      const args: Obj = { to, subject: s, body: b };
      if (cc.length) args.cc = cc;
      const query = {
        en: `Send an email to ${ts}${cs && ` (cc ${cs})`} with the subject "${s}" saying: ${b}`,
        de: `Schick eine E-Mail an ${ts}${
          cs && ` (CC: ${cs})`
        } mit dem Betreff „${s}“ und folgendem Text: ${b}`,
        fr: `Envoie un e-mail à ${ts}${
          cs && ` (en copie : ${cs})`
        } avec l'objet « ${s} » et le message suivant : ${b}`,
        es: `Envía un correo a ${ts}${
          cs && ` (con copia a ${cs})`
        } con el asunto «${s}» y este mensaje: ${b}`,
        ja: `${ts}${cs && `（CCに${cs}）`}に件名「${s}」でメールを送ってください。本文：${b}`,
      }[lang];
      return { args, query, local: {} };
    };
  },
};

const CUISINES: Record<string, T5> = {
  italian: ["Italian", "italienisches", "italien", "italiano", "イタリアン"],
  japanese: ["Japanese", "japanisches", "japonais", "japonés", "和食"],
  mexican: ["Mexican", "mexikanisches", "mexicain", "mexicano", "メキシコ料理"],
  vegetarian: ["vegetarian", "vegetarisches", "végétarien", "vegetariano", "ベジタリアン料理"],
  thai: ["Thai", "thailändisches", "thaï", "tailandés", "タイ料理"],
};
const PRICE_LEVELS: T5[] = [
  ["cheap", "günstiges", "pas cher", "barato", "安い"],
  ["mid-range", "mittelpreisiges", "de gamme moyenne", "de precio medio", "手頃な"],
  ["upscale", "gehobenes", "haut de gamme", "de lujo", "高級な"],
];
const searchRestaurants: Tool = {
  schema: schema("search_restaurants", "Find restaurants near a place.", {
    location: S,
    cuisine: enumOf(...Object.keys(CUISINES)),
    party_size: INT,
    price_level: {
      type: "integer",
      minimum: 1,
      maximum: 3,
      description: "1 cheap, 2 mid-range, 3 upscale",
    },
    open_now: BOOL,
  }, ["location"]),
  slips: ["find_restaurants", "restaurant_search"],
  gen: (r) => {
    const c = r.pick(CITIES), cuisine = r.pick(Object.keys(CUISINES)), n = 2 + r.int(7);
    const level = 1 + r.int(3), open = r.chance(0.4);
    const args: Obj = { location: c.id, cuisine, party_size: n, price_level: level };
    if (open) args.open_now = true;
    return (lang) => {
      const [city, cu, pl] = [
        t(c.n, lang),
        t(CUISINES[cuisine]!, lang),
        t(PRICE_LEVELS[level - 1]!, lang),
      ];
      const query = {
        en: `Find ${
          /^[aeiou]/.test(pl) ? "an" : "a"
        } ${pl} ${cu} restaurant in ${city} for ${n} people${
          open ? " that's open right now" : ""
        }.`,
        de: `Finde ein ${pl} ${cu} Restaurant in ${city} für ${n} Personen${
          open ? ", das gerade geöffnet hat" : ""
        }.`,
        fr: `Trouve un restaurant ${cu} ${pl} à ${city} pour ${n} personnes${
          open ? ", ouvert en ce moment" : ""
        }.`,
        es: `Busca un restaurante ${cu} ${pl} en ${city} para ${n} personas${
          open ? " que esté abierto ahora" : ""
        }.`,
        ja: `${city}で${n}人で行ける${pl}${cu}のお店を探してください。${
          open ? "今開いているところがいいです。" : ""
        }`,
      }[lang];
      return { args, query, local: localCity(c, lang) };
    };
  },
};

const COMPANIES: [string, string, string, string][] = [
  ["Apple", "AAPL", "NASDAQ", "アップル"],
  ["Nestlé", "NESN", "SIX", "ネスレ"],
  ["SAP", "SAP", "XETRA", "SAP"],
  ["Toyota", "7203", "TSE", "トヨタ"],
  ["Petrobras", "PETR4", "B3", "ペトロブラス"],
  ["LVMH", "MC", "EPA", "LVMH"],
  ["Inditex", "ITX", "BME", "インディテックス"],
  ["Novo Nordisk", "NOVO-B", "CPH", "ノボ ノルディスク"],
];
const INTERVALS: Record<string, T5> = {
  "1h": ["hourly", "stündliche", "horaires", "por hora", "1時間足"],
  "1d": ["daily", "tägliche", "journalières", "diarios", "日足"],
  "1wk": ["weekly", "wöchentliche", "hebdomadaires", "semanales", "週足"],
};
const getStockPrice: Tool = {
  schema: schema("get_stock_price", "Latest price and recent candles for a listed share.", {
    symbol: S,
    exchange: S,
    interval: enumOf(...Object.keys(INTERVALS)),
  }, ["symbol"]),
  slips: ["get_stock_quote", "stock_price"],
  gen: (r) => {
    const [name, symbol, exchange, ja] = r.pick(COMPANIES),
      interval = r.pick(Object.keys(INTERVALS));
    const args: Obj = { symbol, exchange, interval };
    return (lang) => {
      const [co, iv] = [lang === "ja" ? ja : name, t(INTERVALS[interval]!, lang)];
      const query = {
        en: `What's the current ${co} share price on the ${exchange}? Show me ${iv} data.`,
        de: `Wie steht die ${co}-Aktie an der ${exchange}? Zeig mir ${iv} Daten.`,
        fr: `Quel est le cours de l'action ${co} sur ${exchange} ? Montre-moi les données ${iv}.`,
        es: `¿A cuánto cotiza ${co} en ${exchange}? Muéstrame datos ${iv}.`,
        ja: `${exchange}での${co}の株価を教えてください。${iv}でお願いします。`,
      }[lang];
      return { args, query, local: { [symbol]: co } };
    };
  },
};

const TARGET_LANGS: Record<string, T5> = {
  it: ["Italian", "Italienische", "italien", "italiano", "イタリア語"],
  pt: ["Portuguese", "Portugiesische", "portugais", "portugués", "ポルトガル語"],
  ko: ["Korean", "Koreanische", "coréen", "coreano", "韓国語"],
  nl: ["Dutch", "Niederländische", "néerlandais", "neerlandés", "オランダ語"],
  zh: ["Chinese", "Chinesische", "chinois", "chino", "中国語"],
};
const PHRASES: T5[] = [
  [
    "Where is the nearest pharmacy?",
    "Wo ist die nächste Apotheke?",
    "Où est la pharmacie la plus proche ?",
    "¿Dónde está la farmacia más cercana?",
    "一番近い薬局はどこですか？",
  ],
  [
    "Could we have the bill, please?",
    "Könnten wir bitte die Rechnung haben?",
    "Pourrions-nous avoir l'addition, s'il vous plaît ?",
    "¿Nos trae la cuenta, por favor?",
    "お会計をお願いできますか？",
  ],
  [
    "My luggage didn't arrive.",
    "Mein Gepäck ist nicht angekommen.",
    "Mes bagages ne sont pas arrivés.",
    "Mi equipaje no ha llegado.",
    "荷物が届いていません。",
  ],
  [
    "I'm allergic to peanuts.",
    "Ich bin allergisch gegen Erdnüsse.",
    "Je suis allergique aux cacahuètes.",
    "Soy alérgico a los cacahuetes.",
    "ピーナッツアレルギーがあります。",
  ],
  [
    "Is breakfast included?",
    "Ist das Frühstück inbegriffen?",
    "Le petit-déjeuner est-il compris ?",
    "¿El desayuno está incluido?",
    "朝食は含まれていますか？",
  ],
  [
    "The meeting has been moved to Thursday.",
    "Das Meeting wurde auf Donnerstag verschoben.",
    "La réunion a été déplacée à jeudi.",
    "La reunión se ha cambiado al jueves.",
    "会議は木曜日に変更になりました。",
  ],
];
const translateText: Tool = {
  schema: schema("translate_text", "Translate text. Languages are ISO 639-1 codes.", {
    text: S,
    source_lang: S,
    target_lang: S,
    formality: enumOf("formal", "informal"),
  }, ["text", "target_lang"]),
  slips: ["translate", "translator"],
  gen: (r) => {
    const phrase = r.pick(PHRASES),
      target = r.pick(Object.keys(TARGET_LANGS)),
      formal = r.chance(0.3);
    return (lang) => {
      const [x, tl] = [t(phrase, lang), t(TARGET_LANGS[target]!, lang)];
      const args: Obj = { text: x, source_lang: lang, target_lang: target };
      if (formal) args.formality = "formal";
      const query = {
        en: `Translate "${x}" into ${tl}${formal ? ", using a formal tone" : ""}.`,
        de: `Übersetze „${x}“ ins ${tl}${formal ? ", bitte in förmlichem Ton" : ""}.`,
        fr: `Traduis « ${x} » en ${tl}${formal ? ", sur un ton formel" : ""}.`,
        es: `Traduce «${x}» al ${tl}${formal ? ", con un tono formal" : ""}.`,
        ja: `「${x}」を${tl}に翻訳してください${formal ? "（丁寧な表現で）" : ""}。`,
      }[lang];
      return { args, query, local: {} };
    };
  },
};

const TODOS: T5[] = [
  [
    "call the dentist",
    "Zahnarzt anrufen",
    "appeler le dentiste",
    "llamar al dentista",
    "歯医者に電話する",
  ],
  [
    "water the plants",
    "Pflanzen gießen",
    "arroser les plantes",
    "regar las plantas",
    "植物に水をやる",
  ],
  [
    "renew my passport",
    "Reisepass verlängern",
    "renouveler mon passeport",
    "renovar el pasaporte",
    "パスポートを更新する",
  ],
  [
    "pay the electricity bill",
    "Stromrechnung bezahlen",
    "payer la facture d'électricité",
    "pagar la factura de la luz",
    "電気代を払う",
  ],
  [
    "pick up Lena from football practice",
    "Lena vom Fußballtraining abholen",
    "récupérer Lena à l'entraînement de foot",
    "recoger a Lena del entrenamiento de fútbol",
    "レナをサッカーの練習に迎えに行く",
  ],
  [
    "take my vitamins",
    "Vitamine nehmen",
    "prendre mes vitamines",
    "tomar las vitaminas",
    "ビタミンを飲む",
  ],
  [
    "submit the expense report",
    "Spesenabrechnung einreichen",
    "envoyer la note de frais",
    "entregar el informe de gastos",
    "経費精算を提出する",
  ],
];
const REPEATS: Record<string, T5> = {
  daily: [
    ", and repeat it every day",
    " (jeden Tag wiederholen)",
    ", tous les jours",
    ", todos los días",
    "（毎日繰り返し）",
  ],
  weekly: [
    ", and repeat it every week",
    " (jede Woche wiederholen)",
    ", toutes les semaines",
    ", todas las semanas",
    "（毎週繰り返し）",
  ],
};
const setReminder: Tool = {
  schema: schema("set_reminder", "Set a reminder on the user's phone.", {
    text: S,
    remind_at: DATETIME,
    repeat: enumOf("daily", "weekly"),
  }, ["text", "remind_at"]),
  slips: ["create_reminder", "add_reminder"],
  gen: (r) => {
    const todo = r.pick(TODOS), day = randomDay(r), h = 7 + r.int(14), m = r.pick([0, 0, 30, 45]);
    const repeat = r.chance(0.35) ? r.pick(Object.keys(REPEATS)) : null;
    const at = `${iso(day)}T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00`;
    return (lang) => {
      const [x, d, c, rp] = [
        t(todo, lang),
        date(lang, day),
        clock(lang, h, m),
        repeat ? t(REPEATS[repeat]!, lang) : "",
      ];
      const args: Obj = { text: x, remind_at: at };
      if (repeat) args.repeat = repeat;
      const query = {
        en: `Remind me to ${x} on ${d} at ${c}${rp}.`,
        de: `Erinnere mich am ${d} um ${c} an Folgendes: ${x}${rp}.`,
        fr: `Mets-moi un rappel le ${d} à ${c} : ${x}${rp}.`,
        es: `Ponme un recordatorio el ${d} a las ${c}: ${x}${rp}.`,
        ja: `${d}${c}に「${x}」とリマインドしてください${rp}。`,
      }[lang];
      return { args, query, local: {} };
    };
  },
};

const ROUTES: [string, string][] = [
  ["Zürich HB", "Uetliberg"],
  ["Sagrada Família", "Park Güell"],
  ["Gare du Nord", "Musée d'Orsay"],
  ["Alexanderplatz", "Tempelhofer Feld"],
  ["Praça da Sé", "Parque Ibirapuera"],
  ["Shibuya Station", "Tokyo Skytree"],
  ["Stephansplatz", "Schloss Schönbrunn"],
  ["Nyhavn", "Tivoli Gardens"],
];
const MODES: Record<string, T5> = {
  driving: ["by car", "mit dem Auto", "en voiture", "en coche", "車で"],
  walking: ["on foot", "zu Fuß", "à pied", "a pie", "徒歩で"],
  transit: [
    "by public transport",
    "mit öffentlichen Verkehrsmitteln",
    "en transports en commun",
    "en transporte público",
    "公共交通機関で",
  ],
  bicycling: ["by bike", "mit dem Fahrrad", "à vélo", "en bici", "自転車で"],
};
const AVOID: Record<string, T5> = {
  tolls: ["tolls", "Mautstraßen", "les péages", "los peajes", "有料道路"],
  highways: ["highways", "Autobahnen", "les autoroutes", "las autopistas", "高速道路"],
  ferries: ["ferries", "Fähren", "les ferries", "los ferris", "フェリー"],
};
const getDirections: Tool = {
  schema: schema("get_directions", "Route between two places.", {
    origin: S,
    destination: S,
    mode: enumOf(...Object.keys(MODES)),
    avoid: list(enumOf(...Object.keys(AVOID))),
  }, ["origin", "destination"]),
  slips: ["directions", "get_route"],
  gen: (r) => {
    const pair = r.pick(ROUTES), [o, d] = r.chance(0.5) ? pair : [pair[1], pair[0]];
    const mode = r.pick(Object.keys(MODES));
    const avoid = mode === "driving" && r.chance(0.6)
      ? r.sample(Object.keys(AVOID), 1 + r.int(2))
      : [];
    const args: Obj = { origin: o, destination: d, mode };
    if (avoid.length) args.avoid = avoid;
    return (lang) => {
      const [mo, av] = [t(MODES[mode]!, lang), and(lang, avoid.map((k) => t(AVOID[k]!, lang)))];
      const query = {
        en: `How do I get from ${o} to ${d} ${mo}?${av && ` Avoid ${av}.`}`,
        de: `Zeig mir den Weg von „${o}“ nach „${d}“ ${mo}.${av && ` Bitte ${av} vermeiden.`}`,
        fr: `Comment aller de ${o} à ${d} ${mo} ?${av && ` Évite ${av}.`}`,
        es: `¿Cómo llego de ${o} a ${d} ${mo}?${av && ` Evita ${av}.`}`,
        ja: `${o}から${d}まで${mo}の行き方を教えてください。${av && `${av}は避けてください。`}`,
      }[lang];
      return { args, query, local: {} };
    };
  },
};

const PRODUCTS: T5[] = [
  [
    "wireless noise-cancelling headphones",
    "kabellose Kopfhörer mit Geräuschunterdrückung",
    "casque sans fil à réduction de bruit",
    "auriculares inalámbricos con cancelación de ruido",
    "ワイヤレスノイズキャンセリングヘッドホン",
  ],
  [
    "trail running shoes size 42",
    "Trailrunning-Schuhe Größe 42",
    "chaussures de trail pointure 42",
    "zapatillas de trail talla 42",
    "トレイルランニングシューズ 42サイズ",
  ],
  [
    "espresso machine",
    "Espressomaschine",
    "machine à expresso",
    "cafetera espresso",
    "エスプレッソマシン",
  ],
  [
    "children's raincoat",
    "Regenjacke für Kinder",
    "imperméable pour enfant",
    "chubasquero infantil",
    "子ども用レインコート",
  ],
  [
    "mechanical keyboard",
    "mechanische Tastatur",
    "clavier mécanique",
    "teclado mecánico",
    "メカニカルキーボード",
  ],
  [
    "30 litre hiking backpack",
    "Wanderrucksack 30 Liter",
    "sac à dos de randonnée 30 litres",
    "mochila de senderismo de 30 litros",
    "30リットルの登山用リュック",
  ],
];
const SORTS: Record<string, T5> = {
  price_asc: [
    "sorted by price, lowest first",
    "sortiert nach Preis, aufsteigend",
    "triés par prix croissant",
    "ordenados por precio de menor a mayor",
    "価格の安い順に並べて",
  ],
  rating: [
    "sorted by rating",
    "sortiert nach Bewertung",
    "triés par note",
    "ordenados por valoración",
    "評価順に並べて",
  ],
};
const searchProducts: Tool = {
  schema: schema("search_products", "Search the online shop.", {
    query: S,
    max_price: NUM,
    currency: S,
    in_stock_only: BOOL,
    sort_by: enumOf("relevance", ...Object.keys(SORTS)),
  }, ["query"]),
  slips: ["product_search", "search_shopping"],
  gen: (r) => {
    const q = r.pick(PRODUCTS), max = r.pick([200, 89.99, 150, 49.5, 120, 1000]);
    const cur = r.pick(["EUR", "USD", "CHF"]),
      stock = r.chance(0.5),
      sort = r.pick(Object.keys(SORTS));
    return (lang) => {
      const [x, p, so] = [t(q, lang), price(lang, max), t(SORTS[sort]!, lang)];
      const args: Obj = {
        query: x,
        max_price: new F(max),
        currency: cur,
        in_stock_only: stock,
        sort_by: sort,
      };
      const query = {
        en: `Search the shop for "${x}" under ${p} ${cur}${stock ? ", in stock only" : ""}, ${so}.`,
        de: `Suche im Shop nach „${x}“ unter ${p} ${cur}${
          stock ? ", nur lieferbare Artikel" : ""
        }, ${so}.`,
        fr: `Cherche « ${x} » dans la boutique, à moins de ${p} ${cur}${
          stock ? ", uniquement en stock" : ""
        }, ${so}.`,
        es: `Busca «${x}» en la tienda por menos de ${p} ${cur}${
          stock ? ", solo con stock disponible" : ""
        }, ${so}.`,
        ja: `ショップで「${x}」を${p} ${cur}以下で探して、${so}ください。${
          stock ? "在庫ありのみでお願いします。" : ""
        }`,
      }[lang];
      return { args, query, local: {} };
    };
  },
};

export const TOOLS: Tool[] = [
  getWeather,
  searchHotels,
  bookFlight,
  convertCurrency,
  createEvent,
  sendEmail,
  searchRestaurants,
  getStockPrice,
  translateText,
  setReminder,
  getDirections,
  searchProducts,
];

// ---- What the simulated models say around (or instead of) a call ---------------------------------

export const PROSE: Record<Lang, { before: string[]; after: string[]; instead: string[] }> = {
  en: {
    before: [
      "Sure! Here is the function call:",
      "I'll call the right tool for this.",
      "To answer this I need to use a tool:",
    ],
    after: [
      "Let me know if you need anything else!",
      "Once I have the result, I'll summarize it for you.",
    ],
    instead: [
      "I'm sorry, but I don't have access to real-time information.",
      "I can help with that! Could you tell me a bit more about what you need?",
      "I would use the TOOL tool for this request.",
    ],
  },
  de: {
    before: [
      "Klar! Hier ist der Funktionsaufruf:",
      "Dafür rufe ich das passende Tool auf.",
      "Dafür verwende ich ein Tool:",
    ],
    after: [
      "Sag Bescheid, wenn du noch etwas brauchst!",
      "Sobald ich das Ergebnis habe, fasse ich es zusammen.",
    ],
    instead: [
      "Leider habe ich keinen Zugriff auf aktuelle Informationen.",
      "Gern helfe ich dabei! Kannst du mir noch etwas mehr Details geben?",
      "Dafür würde ich das Tool TOOL verwenden.",
    ],
  },
  fr: {
    before: [
      "Bien sûr ! Voici l'appel de fonction :",
      "Je vais utiliser l'outil approprié.",
      "Pour cela, j'appelle un outil :",
    ],
    after: [
      "Dis-moi si tu as besoin d'autre chose !",
      "Dès que j'ai le résultat, je te le résume.",
    ],
    instead: [
      "Désolé, je n'ai pas accès aux informations en temps réel.",
      "Avec plaisir ! Peux-tu me donner un peu plus de détails ?",
      "J'utiliserais l'outil TOOL pour cette demande.",
    ],
  },
  es: {
    before: [
      "¡Claro! Aquí tienes la llamada a la función:",
      "Voy a usar la herramienta adecuada.",
      "Para esto necesito una herramienta:",
    ],
    after: ["¡Avísame si necesitas algo más!", "En cuanto tenga el resultado, te lo resumo."],
    instead: [
      "Lo siento, no tengo acceso a información en tiempo real.",
      "¡Con gusto te ayudo! ¿Puedes darme algún detalle más?",
      "Para esta solicitud usaría la herramienta TOOL.",
    ],
  },
  ja: {
    before: [
      "承知しました。関数呼び出しは次のとおりです：",
      "適切なツールを呼び出します。",
      "ツールを使って確認します：",
    ],
    after: ["他に何かあればお知らせください。", "結果が届いたら要約してお伝えします。"],
    instead: [
      "申し訳ありませんが、リアルタイムの情報にはアクセスできません。",
      "喜んでお手伝いします！もう少し詳しく教えていただけますか？",
      "このリクエストにはTOOLツールを使います。",
    ],
  },
};

/** The query of a root whose gold target is an empty list (nothing to call). */
export const NOTHING_TO_DO: T5 = [
  "Thanks, that's all for now!",
  "Danke, das war's erst mal!",
  "Merci, ce sera tout pour le moment !",
  "¡Gracias, eso es todo por ahora!",
  "ありがとう、今はこれで大丈夫です！",
];
export const say = t;
export const toolName = (tool: Tool): string => tool.schema.name as string;

// ---- The formatter: a chat prompt with the offered tools ------------------------------------------

/** A tool list in the TypeScript-like "namespace functions" notation of OpenAI's chat format. */
function signature(t: Tool): string {
  const type = (p: Obj): string => {
    if (p.enum) return (p.enum as string[]).map((x) => JSON.stringify(x)).join(" | ");
    if (p.type === "array") {
      return `${
        type(p.items as Obj).includes("|") ? `(${type(p.items as Obj)})` : type(p.items as Obj)
      }[]`;
    }
    if (p.type !== "object") return p.type === "integer" ? "number" : p.type as string;
    const req = (p.required ?? []) as string[];
    const props = Object.entries(p.properties as Obj).map(([k, v]) =>
      `${k}${req.includes(k) ? "" : "?"}: ${type(v as Obj)}`
    );
    return `{ ${props.join(", ")} }`;
  };
  const params = t.schema.parameters as Obj, req = params.required as string[];
  const lines = Object.entries(params.properties as Obj).map(([k, v]) => {
    const note = (v as Obj).format === "date" ? "YYYY-MM-DD" : (v as Obj).description ??
      ((v as Obj).type === "integer" ? "integer" : "");
    return `${k}${req.includes(k) ? "" : "?"}: ${type(v as Obj)},${note ? ` // ${note}` : ""}`;
  });
  return `// ${t.schema.description}\ntype ${t.schema.name} = (_: {\n${
    lines.join("\n")
  }\n}) => any;`;
}

export function chatPrompt(tools: string[], query: string): string {
  const defs = tools.map((n) => signature(TOOLS.find((x) => toolName(x) === n)!)).join("\n\n");
  return `<|im_start|>system
You are a helpful assistant. Today is Monday, 2025-03-03.

# Tools

## functions

namespace functions {

${defs}

} // namespace functions

To call a function, reply with exactly one JSON object {"name": <function name>, "arguments": <object>} and nothing else.<|im_end|>
<|im_start|>user
${query}<|im_end|>
<|im_start|>assistant
`;
}
