/** The relations a person picks on a task's panel, each from this task's side (docs/product.md §11). No Zod here: the panel imports it. */
export const RELATION_CHOICES = ["blocks", "blocked-by", "relates", "duplicates", "duplicated-by"] as const;
export type RelationChoice = (typeof RELATION_CHOICES)[number];

export const RELATION_CHOICE_LABELS: Record<RelationChoice, string> = {
  blocks: "Blocks",
  "blocked-by": "Is blocked by",
  relates: "Relates to",
  duplicates: "Duplicates",
  "duplicated-by": "Is duplicated by",
};
