/**
 * A page of `es_events e` rows matching `where`, in log order, at most `limit` rows and, after the
 * first, only while the rows before hold fewer than `maxBytes` of data and metadata. Each row also
 * carries `bytes_through`, the page's bytes up to and including it: a page whose last row reaches
 * `maxBytes` may have been cut short of the end of the log. A value that
 * is compressed or over 2 KB is measured as the JSON text it reads as (detoasted for that): its
 * stored size would let a page of repetitive text decompress to a hundred times its budget.
 */
export function pageWithinBytes(columns: string, where: string, limit: string, maxBytes: string): string {
  const size = (value: string) =>
    `case when pg_column_compression(${value}) is not null or pg_column_size(${value}) > 2048 then octet_length(${value}::text) else pg_column_size(${value}) end`;
  return `select ${columns}, e.bytes_through::text as bytes_through from (
      select e.*, size.bytes, sum(size.bytes) over (order by e.xid, e.position rows unbounded preceding) as bytes_through
      from es_events e
      cross join lateral (select ${size('e.data')} + ${size('e.metadata')} as bytes) size
      where ${where}
      order by e.xid, e.position limit ${limit}
    ) e
    where e.bytes_through - e.bytes < ${maxBytes}
    order by e.xid, e.position`;
}
