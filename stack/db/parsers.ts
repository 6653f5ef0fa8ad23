/** Postgres type OIDs whose text form both adapters keep or convert alike. */
export const TYPE = {
  bool: 16,
  int8: 20,
  int2: 21,
  int4: 23,
  oid: 26,
  float4: 700,
  float8: 701,
  json: 114,
  jsonb: 3802,
  numeric: 1700,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  time: 1083,
  interval: 1186,
} as const;

/** How each type's text is read, by name: PGlite's engine thread builds its parsers from this (pglite-engine.mjs). */
export const PARSE_AS: Record<number, "bool" | "number" | "json" | "text"> = {
  [TYPE.bool]: "bool",
  [TYPE.int8]: "number",
  [TYPE.int2]: "number",
  [TYPE.int4]: "number",
  [TYPE.oid]: "number",
  [TYPE.float4]: "number",
  [TYPE.float8]: "number",
  [TYPE.json]: "json",
  [TYPE.jsonb]: "json",
  [TYPE.numeric]: "text",
  [TYPE.date]: "text",
  [TYPE.timestamp]: "text",
  [TYPE.timestamptz]: "text",
  [TYPE.time]: "text",
  [TYPE.interval]: "text",
};

const READ: Record<(typeof PARSE_AS)[number], (value: string) => unknown> = {
  bool: (v) => v === "t" || v === "true",
  number: (v) => Number(v),
  json: (v) => JSON.parse(v),
  text: (v) => v,
};

/** Parsers keyed by type OID, for the pg adapter (the same readers as PGlite's engine thread). */
export const parsers: Record<number, (value: string) => unknown> = Object.fromEntries(
  Object.entries(PARSE_AS).map(([oid, how]) => [Number(oid), READ[how]]),
);
