CREATE TABLE "item_traits" (
	"cid" text NOT NULL,
	"collection" text NOT NULL,
	"trait_type" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "item_traits_cid_trait_type_pk" PRIMARY KEY("cid","trait_type")
);
--> statement-breakpoint
CREATE INDEX "item_traits_collection_idx" ON "item_traits" USING btree ("collection","trait_type","value","cid");--> statement-breakpoint
-- Each tag once (compared without case, the first spelling kept): an upload could send the same tag twice
-- (the demo's "painting" type and style), and the item page printed "#painting #painting".
UPDATE "item_metadata" m SET "tags" = (
  SELECT coalesce(jsonb_agg(to_jsonb(x.tag) ORDER BY x.first), '[]'::jsonb)
  FROM (
    SELECT min(e.ord) AS first, (array_agg(e.value ORDER BY e.ord))[1] AS tag
    FROM jsonb_array_elements_text(m."tags") WITH ORDINALITY AS e(value, ord)
    GROUP BY lower(btrim(e.value))
  ) x)
WHERE jsonb_typeof(m."tags") = 'array'
  AND jsonb_array_length(m."tags") > (
    SELECT count(DISTINCT lower(btrim(v.value))) FROM jsonb_array_elements_text(m."tags") AS v(value));
