/**
 * The relationships of a read's embeds, found in the schema cache as
 * PostgREST's addRels / findRel finds them, for the whole select tree before
 * anything else is planned: missing and ambiguous relationships (PGRST200,
 * PGRST201) are the first errors a read can raise.
 */
import { closestByTrigrams } from "./hints.ts";
import { errors } from "./errors.ts";
import type { SelectEmbed, SelectItem } from "./parse-select.ts";
import { type Relationship, type SchemaCache, type Table, key } from "./schema.ts";

/** The embeds of one level of a select, each with its relationship and its own level's. */
export type EmbedTree = Map<SelectEmbed, { rel: Relationship; embeds: EmbedTree }>;

/** Resolves every embed of a select, depth first. */
export function relationshipsOf(cache: SchemaCache, table: Table, select: SelectItem[]): EmbedTree {
  const embeds: EmbedTree = new Map();
  for (const item of select) {
    if (item.type !== "embed") continue;
    const rel = findRelationship(cache, table, item);
    embeds.set(item, { rel, embeds: relationshipsOf(cache, rel.target, item.children) });
  }
  return embeds;
}

function findRelationship(cache: SchemaCache, origin: Table, item: SelectEmbed): Relationship {
  const all = cache.relationships.get(key(origin.schema, origin.name)) ?? [];
  const target = item.name;
  const hint = item.hint;
  const single = (cols: [string, string][], side: 0 | 1, v: string | undefined) =>
    cols.length === 1 && cols[0][side] === v;
  // PostgREST's findRel
  const matches = all.filter((r) => {
    if (r.target.schema !== origin.schema) return false;
    // a computed relationship is found by its function's name (hints do not apply)
    if (r.computedFn) return target === r.computedFn.name;
    const isFkCard = r.cardinality !== "m2m";
    if (r.isSelf && r.cardinality !== "m2m") {
      // one foreign key, two relationships: the table's name gives the one-to-many, the
      // column's the many-to-one; a hint names the referenced column of the one-to-many
      if (hint === undefined) {
        return (
          (target === r.target.name && r.cardinality === "o2m") ||
          (single(r.cols, 0, target) && r.cardinality === "m2o")
        );
      }
      return target === r.target.name && r.cardinality === "o2m" && single(r.cols, 1, hint);
    }
    if (hint === undefined) {
      return (
        target === r.target.name ||
        (isFkCard && target === r.constraint && !r.target.isView) ||
        (isFkCard && single(r.cols, 0, target) && !r.target.isView)
      );
    }
    return (
      target === r.target.name &&
      ((isFkCard && hint === r.constraint) ||
        (isFkCard && single(r.cols, 0, hint)) ||
        (isFkCard && single(r.cols, 1, hint)) ||
        (r.cardinality === "m2m" && r.junction!.table.name === hint))
    );
  });
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    const originRels = all.map((r) => r.target.name);
    const suggestion = originRels.includes(target) ? null : closestByTrigrams(target, originRels);
    throw errors.noRelationship(origin.name, target, hint, origin.schema, suggestion);
  }
  const fmt = (cols: string[]) => `(${cols.join(", ")})`;
  const details = matches.map((r) => {
    if (r.cardinality === "m2m") {
      const j = r.junction!;
      return {
        cardinality: "many-to-many",
        embedding: `${r.source.name} with ${r.target.name}`,
        relationship: `${j.table.name} using ${j.constraint1}${fmt(j.sourceCols.map((c) => c[0]))} and ${j.constraint2}${fmt(j.targetCols.map((c) => c[0]))}`,
      };
    }
    const card = { m2o: "many-to-one", o2m: "one-to-many", o2o: "one-to-one" }[r.cardinality];
    return {
      cardinality: card,
      embedding: `${r.source.name} with ${r.target.name}`,
      relationship: `${r.constraint} using ${r.source.name}${fmt(r.cols.map((c) => c[0]))} and ${r.target.name}${fmt(r.cols.map((c) => c[1]))}`,
    };
  });
  const hints = matches.map(
    (r) => `'${r.target.name}!${r.cardinality === "m2m" ? r.junction!.table.name : r.constraint}'`,
  );
  throw errors.ambiguousRelationship(origin.name, target, details, hints);
}
