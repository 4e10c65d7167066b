/**
 * The inbox step every batch consumer starts its one statement with (`with ${freshEvents(schema)}, …`):
 * records the event ids `$1` (text[]) for the consumer named `$2` and yields, as `fresh(event_id)`,
 * only ids never recorded before. The effect joins `fresh`, so inbox rows and effect commit together,
 * and an id redelivered in a later batch or repeated inside one has no second effect. An effect that
 * needs several statements runs them in one transaction that starts with this insert.
 */
export function freshEvents(schema: string): string {
  return `fresh as (
    insert into "${schema}".processed_event (event_id, consumer, processed_at)
    select distinct id, $2, now() from unnest($1::text[]) as ids(id)
    on conflict do nothing
    returning event_id)`;
}
