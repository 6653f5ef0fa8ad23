/**
 * The relationships PostgREST embeds along, keyed by their source relation:
 * each foreign key both ways (many-to-one or one-to-one, and back), a
 * function of one row returning a relation's rows (a computed relationship),
 * and many-to-many through a junction table. A function of one row returning
 * a scalar becomes a computed field of its table instead.
 */
import type { Catalog } from "./schema-catalog.ts";
import { type Relationship, type Table, key } from "./schema.ts";

/** A foreign key between two relations of the cache, as [source column, target column] pairs. */
export interface ForeignKey {
  name: string;
  source: Table;
  target: Table;
  cols: [string, string][];
}

export function buildRelationships(
  fks: ForeignKey[],
  computedFns: Catalog["computedFns"],
  byOid: Map<number, Table>,
): Map<string, Relationship[]> {
  const relationships = new Map<string, Relationship[]>();
  const add = (r: Relationship) => {
    const k = key(r.source.schema, r.source.name);
    const list = relationships.get(k) ?? [];
    list.push(r);
    relationships.set(k, list);
  };
  for (const fk of fks) foreignKey(fk).forEach(add);
  for (const f of computedFns) computed(f, byOid, add);
  for (const a of fks) for (const b of fks) manyToMany(a, b, add);
  return relationships;
}

/** A foreign key both ways: many-to-one (one-to-one on a unique key) and back. */
function foreignKey(fk: ForeignKey): Relationship[] {
  const isUnique = (t: Table, colsOf: string[]) =>
    t.uniques.some((u) => u.length === colsOf.length && u.every((c) => colsOf.includes(c)));
  const oneToOne = isUnique(
    fk.source,
    fk.cols.map((c) => c[0]),
  );
  const isSelf = fk.source === fk.target;
  return [
    {
      source: fk.source,
      target: fk.target,
      cardinality: oneToOne ? "o2o" : "m2o",
      isSelf,
      constraint: fk.name,
      cols: fk.cols,
    },
    {
      source: fk.target,
      target: fk.source,
      cardinality: oneToOne ? "o2o" : "o2m",
      isSelf,
      constraint: fk.name,
      cols: fk.cols.map(([a, b]) => [b, a]),
    },
  ];
}

/**
 * A function of one row: a computed relationship when it returns a
 * relation's rows (to-one when it returns a single row: not SETOF, or ROWS
 * 1), else a computed field of the row's table when it returns one scalar.
 */
function computed(f: Catalog["computedFns"][number], byOid: Map<number, Table>, add: (r: Relationship) => void) {
  const source = byOid.get(Number(f.argrel));
  if (!source) return;
  const target = byOid.get(Number(f.retrel));
  if (target) {
    add({
      source,
      target,
      cardinality: !f.retset || Number(f.rows) === 1 ? "m2o" : "o2m",
      isSelf: source === target,
      constraint: "",
      cols: [],
      computedFn: { schema: f.schema, name: f.name },
    });
    return;
  }
  if (f.retset || f.rettype === "void" || Number(f.retrel) !== 0) return;
  (source.computed ??= new Map()).set(f.name, {
    schema: f.schema,
    name: f.name,
    column: {
      name: f.name,
      type: f.rettype,
      typeSql: f.typsql,
      typeOid: Number(f.rettypeoid),
      category: f.category,
      typname: f.typname,
      nullable: true,
      default: null,
      generated: true,
      position: Number.MAX_SAFE_INTEGER,
    },
  });
}

/** Many-to-many through a junction whose primary key holds both foreign keys' columns. */
function manyToMany(a: ForeignKey, b: ForeignKey, add: (r: Relationship) => void) {
  if (a.source !== b.source || a.name === b.name) return;
  const j = a.source;
  const jcols = [...a.cols.map((c) => c[0]), ...b.cols.map((c) => c[0])];
  if (!jcols.every((c) => j.pk.includes(c))) return;
  add({
    source: a.target,
    target: b.target,
    cardinality: "m2m",
    isSelf: a.target === b.target,
    constraint: "",
    cols: [],
    junction: {
      table: j,
      constraint1: a.name,
      constraint2: b.name,
      sourceCols: a.cols.map(([jc, sc]) => [jc, sc]),
      targetCols: b.cols.map(([jc, tc]) => [jc, tc]),
    },
  });
}
