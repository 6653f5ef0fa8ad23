import { describe, expect, it } from "vitest";
import { ParseError, RestError } from "./errors.ts";
import { parseFilter, parseLogic, parseOrder } from "./parse-filters.ts";
import { parseSelect } from "./parse-select.ts";
import { parseQuery } from "./parser.ts";
import { parsePrefer, parseRangeHeader } from "./prefer.ts";

const star = { type: "field", field: { name: "*", json: [] } };

describe("select", () => {
  it("parses columns, aliases, casts, JSON paths and aggregates", () => {
    expect(parseSelect("id,full:name,price::text,data->a->>b,data->0,total:amount.sum()::int,count()")).toEqual([
      {
        type: "field",
        field: { name: "id", json: [] },
        alias: undefined,
        cast: undefined,
        agg: undefined,
        aggCast: undefined,
      },
      {
        type: "field",
        field: { name: "name", json: [] },
        alias: "full",
        cast: undefined,
        agg: undefined,
        aggCast: undefined,
      },
      {
        type: "field",
        field: { name: "price", json: [] },
        alias: undefined,
        cast: "text",
        agg: undefined,
        aggCast: undefined,
      },
      {
        type: "field",
        field: {
          name: "data",
          json: [
            { arrow: "->", key: "a", index: false },
            { arrow: "->>", key: "b", index: false },
          ],
        },
        alias: undefined,
        cast: undefined,
        agg: undefined,
        aggCast: undefined,
      },
      {
        type: "field",
        field: { name: "data", json: [{ arrow: "->", key: "0", index: true }] },
        alias: undefined,
        cast: undefined,
        agg: undefined,
        aggCast: undefined,
      },
      {
        type: "field",
        field: { name: "amount", json: [] },
        alias: "total",
        cast: undefined,
        agg: "sum",
        aggCast: "int",
      },
      { type: "field", field: { name: "*", json: [] }, agg: "count", aggCast: undefined, alias: undefined },
    ]);
  });

  it("parses embeds with aliases, hints, join types, spreads and nesting", () => {
    expect(parseSelect("*,owner:users!owner_id!inner(id,...teams!left(name)),tasks(*)")).toEqual([
      star,
      {
        type: "embed",
        name: "users",
        alias: "owner",
        spread: false,
        hint: "owner_id",
        join: "inner",
        children: [
          {
            type: "field",
            field: { name: "id", json: [] },
            alias: undefined,
            cast: undefined,
            agg: undefined,
            aggCast: undefined,
          },
          {
            type: "embed",
            name: "teams",
            spread: true,
            join: "left",
            children: [
              {
                type: "field",
                field: { name: "name", json: [] },
                alias: undefined,
                cast: undefined,
                agg: undefined,
                aggCast: undefined,
              },
            ],
          },
        ],
      },
      { type: "embed", name: "tasks", alias: undefined, spread: false, children: [star] },
    ]);
  });

  it("accepts quoted names and names with dashes and spaces", () => {
    const [a, b] = parseSelect('"a,b\\"c",my-col') as { field: { name: string } }[];
    expect(a.field.name).toBe('a,b"c');
    expect(b.field.name).toBe("my-col");
  });

  it("rejects malformed selects with PGRST100", () => {
    for (const s of [
      "id,",
      "id)",
      "a(",
      "a(b",
      "a!!b(*)",
      "x::",
      "id.nope()",
      "a:(*)",
      "*x",
      ",",
      "a->",
      "a::text::int",
    ]) {
      expect(() => parseSelect(s), s).toThrow(ParseError);
    }
  });

  it("reports the position like PostgREST", () => {
    try {
      parseSelect("id,name)");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ParseError);
      const err = e as ParseError;
      expect(err.status).toBe(400);
      expect(err.code).toBe("PGRST100");
      expect(err.message).toBe('"failed to parse select parameter (id,name))" (line 1, column 8)');
      expect(err.details).toMatch(/^unexpected "\)" expecting/);
    }
  });
});

describe("filters", () => {
  it("parses operators, negation, quantifiers and fts configs", () => {
    expect(parseFilter("age", "gte.18").filter).toEqual({
      field: { name: "age", json: [] },
      negate: false,
      operation: { kind: "op", op: "gte", value: "18" },
    });
    expect(parseFilter("name", "not.like(any).{a*,b*}").filter.operation).toEqual({
      kind: "op",
      op: "like",
      quant: "any",
      value: "{a*,b*}",
    });
    expect(parseFilter("doc", "wfts(english).cat dog").filter.operation).toEqual({
      kind: "fts",
      op: "wfts",
      config: "english",
      value: "cat dog",
    });
    expect(parseFilter("x", "is.NULL").filter.operation).toEqual({ kind: "is", value: "null" });
    expect(parseFilter("x", "isdistinct.3").filter.operation).toEqual({ kind: "isdistinct", value: "3" });
    expect(parseFilter("x", "eq.a.b.c").filter.operation).toEqual({ kind: "op", op: "eq", value: "a.b.c" });
  });

  it("parses in lists with quotes and backslash escapes", () => {
    expect(parseFilter("t", 'in.(1,"a,b","c\\"d",  e )').filter.operation).toEqual({
      kind: "in",
      values: ["1", "a,b", 'c"d', "  e "],
    });
  });

  it("parses embed paths and JSON paths in the key", () => {
    expect(parseFilter("tasks.data->>x", "eq.1")).toEqual({
      path: ["tasks"],
      filter: {
        field: { name: "data", json: [{ arrow: "->>", key: "x", index: false }] },
        negate: false,
        operation: { kind: "op", op: "eq", value: "1" },
      },
    });
  });

  it("rejects unknown operators and missing values", () => {
    for (const v of ["noop.1", "eq", "in.1,2", "in.(1,2", "is.maybe", "fts(x.y", "not.", "", "eq(some).1"]) {
      expect(() => parseFilter("a", v), v).toThrow(ParseError);
    }
  });
});

describe("logic trees", () => {
  it("parses nested and/or with negation", () => {
    const { tree } = parseLogic("or", '(a.eq.1,and(b.gt.2,c.not.is.null),not.or(d.in.(1,2),e.eq."x,y"))');
    expect(tree).toMatchObject({
      type: "expr",
      op: "or",
      negate: false,
      children: [
        { type: "filter", filter: { field: { name: "a" }, operation: { op: "eq", value: "1" } } },
        { type: "expr", op: "and", children: [{ type: "filter" }, { type: "filter", filter: { negate: true } }] },
        {
          type: "expr",
          op: "or",
          negate: true,
          children: [
            { filter: { operation: { kind: "in", values: ["1", "2"] } } },
            { filter: { operation: { value: "x,y" } } },
          ],
        },
      ],
    });
    expect(parseLogic("tasks.not.and", "(a.eq.1,b.cs.{1,2})")).toMatchObject({
      path: ["tasks"],
      tree: { negate: true, op: "and", children: [{}, { filter: { operation: { op: "cs", value: "{1,2}" } } }] },
    });
  });

  it("rejects unbalanced or empty trees", () => {
    for (const v of ["(a.eq.1", "a.eq.1", "()", "(a.eq.1))", "(and(a.eq.1)", "(a.zz.1)", "(,)"]) {
      expect(() => parseLogic("or", v), v).toThrow(ParseError);
    }
  });
});

describe("order", () => {
  it("parses directions, nulls and related columns", () => {
    expect(parseOrder("order", "a.desc.nullslast,b,data->>x.asc,client(name).desc").terms).toEqual([
      { field: { name: "a", json: [] }, dir: "desc", nulls: "last" },
      { field: { name: "b", json: [] } },
      { field: { name: "data", json: [{ arrow: "->>", key: "x", index: false }] }, dir: "asc" },
      { field: { name: "name", json: [] }, relation: "client", dir: "desc" },
    ]);
    expect(parseOrder("tasks.order", "id").path).toEqual(["tasks"]);
  });

  it("rejects unknown directions", () => {
    for (const v of ["a.sideways", "a.desc.nullsmaybe", "a,", "a.asc.desc"])
      expect(() => parseOrder("order", v), v).toThrow(ParseError);
  });
});

describe("the query string", () => {
  it("sorts parameters into select, filters, logic, order and ranges", () => {
    const q = parseQuery([
      ["select", "id,tasks(id)"],
      ["id", "gt.1"],
      ["tasks.status", "eq.todo"],
      ["or", "(a.eq.1,b.eq.2)"],
      ["tasks.order", "id.desc"],
      ["limit", "10"],
      ["offset", "5"],
      ["tasks.limit", "2"],
      ["columns", "a,b"],
      ["on_conflict", "email"],
    ]);
    expect(q.filters.map((x) => x.path)).toEqual([[], ["tasks"]]);
    expect(q.logic.length).toBe(1);
    expect(q.order[0].path).toEqual(["tasks"]);
    expect(q.ranges.get("")).toEqual({ offset: 5, limit: 10 });
    expect(q.ranges.get("tasks")).toEqual({ offset: 0, limit: 2 });
    expect(q.columns).toEqual(["a", "b"]);
    expect(q.onConflict).toEqual(["email"]);
  });

  it("treats plain values as function arguments on rpc reads", () => {
    const q = parseQuery(
      [
        ["name", "bob"],
        ["id", "eq.1"],
      ],
      { isRpcRead: true },
    );
    expect(q.rpcParams).toEqual([["name", "bob"]]);
    expect(q.filters.length).toBe(1);
  });

  it("rejects a negative limit with 416 PGRST103", () => {
    expect(() => parseQuery([["limit", "-1"]])).toThrow(RestError);
    try {
      parseQuery([["limit", "-1"]]);
    } catch (e) {
      expect((e as RestError).code).toBe("PGRST103");
    }
  });
});

describe("headers", () => {
  it("parses Range", () => {
    expect(parseRangeHeader("0-9")).toEqual({ from: 0, to: 9 });
    expect(parseRangeHeader("5-")).toEqual({ from: 5, to: null });
    expect(parseRangeHeader("x")).toBeNull();
  });

  it("parses Prefer, keeping the first of each and collecting unknown ones", () => {
    const { prefs, invalid } = parsePrefer(
      "return=representation, count=exact,count=planned, tx=rollback, foo=bar, max-affected=5",
    );
    expect(prefs).toEqual({
      return: "representation",
      count: "exact",
      tx: "rollback",
      maxAffected: 5,
    });
    expect(parsePrefer("return=bogus, handling=strict").prefs).toEqual({ handling: "strict" });
    expect(invalid).toEqual(["foo=bar"]);
  });
});

// ------------------------------------------------------------------ fuzzing

/** A small deterministic PRNG so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = [
  "a",
  "b",
  "id",
  "(",
  ")",
  ",",
  ".",
  ":",
  "::",
  "!",
  "*",
  '"',
  "\\",
  "-",
  ">",
  "->",
  "->>",
  "eq",
  "not",
  "in",
  "or",
  "and",
  "{",
  "}",
  " ",
  "'",
  ";",
  "$1",
  "é",
  "\u0000",
  "%",
  "...",
  "count()",
  "sum()",
  "inner",
  "1",
];

function randomInput(next: () => number, len: number) {
  let s = "";
  for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return s;
}

describe("hostile and random input", () => {
  it("never throws anything but a 4xx RestError, for thousands of random inputs to every parser", () => {
    const next = rng(42);
    for (let i = 0; i < 2500; i++) {
      const input = randomInput(next, 1 + Math.floor(next() * 16));
      const attempts: (() => unknown)[] = [
        () => parseSelect(input),
        () => parseFilter(input, "eq.1"),
        () => parseFilter("a", input),
        () => parseLogic("or", input),
        () => parseOrder("order", input),
        () => parseQuery([[input, input]]),
      ];
      for (const attempt of attempts) {
        try {
          attempt();
        } catch (e) {
          if (!(e instanceof RestError)) throw new Error(`non-RestError for ${JSON.stringify(input)}: ${String(e)}`);
          expect(e.status).toBeGreaterThanOrEqual(400);
          expect(e.status).toBeLessThan(500);
        }
      }
    }
  });

  it("keeps SQL-looking input as plain names and values", () => {
    const { filter } = parseFilter("id", "eq.1; drop table users; --");
    expect(filter.operation).toEqual({ kind: "op", op: "eq", value: "1; drop table users; --" });
    expect(() => parseSelect("id;drop table x")).toThrow(ParseError);
    const [item] = parseSelect('"x\\"; drop table y; --"') as { field: { name: string } }[];
    expect(item.field.name).toBe('x"; drop table y; --');
  });

  it("copes with very long and deeply nested input without blowing the stack", () => {
    expect(() => parseSelect("a(".repeat(5000) + ")".repeat(5000))).toThrow(ParseError);
    expect(() => parseLogic("or", "(" + "and(".repeat(5000) + "a.eq.1" + ")".repeat(5001))).toThrow(ParseError);
    expect(parseSelect(Array.from({ length: 2000 }, (_, i) => `c${i}`).join(",")).length).toBe(2000);
  });
});
