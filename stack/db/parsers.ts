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

const keep = (v: string) => v;

/** Parsers keyed by type OID, shared by the PGlite and pg adapters. */
export const parsers: Record<number, (value: string) => unknown> = {
  [TYPE.bool]: (v) => v === "t" || v === "true",
  [TYPE.int8]: (v) => Number(v),
  [TYPE.int2]: (v) => Number(v),
  [TYPE.int4]: (v) => Number(v),
  [TYPE.oid]: (v) => Number(v),
  [TYPE.float4]: (v) => Number(v),
  [TYPE.float8]: (v) => Number(v),
  [TYPE.json]: (v) => JSON.parse(v),
  [TYPE.jsonb]: (v) => JSON.parse(v),
  [TYPE.numeric]: keep,
  [TYPE.date]: keep,
  [TYPE.timestamp]: keep,
  [TYPE.timestamptz]: keep,
  [TYPE.time]: keep,
  [TYPE.interval]: keep,
};
